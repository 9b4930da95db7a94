import { type FormEvent, useState } from 'react';
import { ROLES, type Role } from '../../shared/backoffice';
import { call } from '../api';
import { ROLE_LABEL, when } from '../format';
import { useOps } from '../hooks';
import { useMe } from '../session';
import { Badge, Button, Card, ErrorLine, Field, PageHead, css as s } from '../ui';

/**
 * Staff (admins): members and roles. Adding a member sends their one-time enrolment link to their
 * own address (the admin never sees it); a member who lost their factor is re-enrolled the same
 * way. Roles change only with a fresh second factor, and never one's own.
 */
export function Staff() {
  const me = useMe();
  const list = useOps('staff', {});
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [contact, setContact] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    const r = await call('staffAdd', { login, name, role, contact });
    setError(r.ok ? null : r.error);
    if (!r.ok) return;
    setSent(`${r.data.staff.name}’s enrolment link was sent to ${r.data.sentTo}.`);
    setLogin('');
    setName('');
    setContact('');
    list.reload();
  }
  async function reenrol(id: number, who: string) {
    const r = await call('staffReenrol', { id });
    setError(r.ok ? null : r.error);
    if (r.ok) setSent(`${who}’s factors were removed; a new enrolment link was sent to ${r.data.sentTo}.`);
    list.reload();
  }
  async function changeRole(id: number, next: Role) {
    const r = await call('staffRole', { id, role: next });
    setError(r.ok ? null : r.error);
    list.reload();
  }
  async function disable(id: number) {
    const r = await call('staffDisable', { id });
    setError(r.ok ? null : r.error);
    list.reload();
  }

  return (
    <>
      <PageHead title="Staff" subtitle="Each member signs in with a password and a second factor." />
      <ErrorLine error={list.error ?? error} />
      <div className={s.splitForm}>
        <Card title="Members" flush>
          <table className={s.table}>
            <thead>
              <tr>
                <th>Member</th>
                <th>Role</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(list.data ?? []).map((m) => (
                <tr key={m.id}>
                  <td>
                    <div className={`${s.strong} ${s.nowrap}`}>{m.name}</div>
                    <div className={`${s.mono} ${s.small} ${s.muted} ${s.nowrap}`}>{m.login}</div>
                    <div className={`${s.small} ${s.muted} ${s.nowrap}`}>Added {when(m.createdAt)}</div>
                    {!m.enrolled && <Badge tone="warn">Not enrolled</Badge>}
                    {m.disabled && <Badge tone="danger">Disabled</Badge>}
                  </td>
                  <td>
                    {m.id === me.id || m.disabled ? (
                      ROLE_LABEL[m.role]
                    ) : (
                      <select
                        className={`${s.select} ${s.selectFit}`}
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        onChange={(e) => void changeRole(m.id, e.target.value as Role)}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {ROLE_LABEL[r]}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td className={s.num}>
                    {m.id !== me.id && !m.disabled && (
                      <span className={s.actions}>
                        {m.contact && (
                          <Button small onClick={() => void reenrol(m.id, m.name)}>
                            Re-enrol
                          </Button>
                        )}
                        <Button small tone="danger" onClick={() => void disable(m.id)}>
                          Disable
                        </Button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="Add a member">
          <form className={s.stack} onSubmit={add}>
            <Field id="s-login" label="Login">
              <input
                id="s-login"
                className={s.input}
                value={login}
                onChange={(e) => setLogin(e.target.value.toLowerCase())}
              />
            </Field>
            <Field id="s-name" label="Name">
              <input id="s-name" className={s.input} value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <Field id="s-role" label="Role">
              <select
                id="s-role"
                className={s.select}
                value={role}
                onChange={(e) => setRole(e.target.value as Role)}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABEL[r]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="s-contact" label="Their own e-mail (the enrolment link goes there)">
              <input
                id="s-contact"
                type="email"
                className={s.input}
                value={contact}
                onChange={(e) => setContact(e.target.value)}
              />
            </Field>
            <Button tone="primary" type="submit" disabled={!login || !name || !contact}>
              Add and send the enrolment link
            </Button>
            {sent && (
              <p className={s.notice} role="status">
                {sent}
              </p>
            )}
          </form>
        </Card>
      </div>
    </>
  );
}
