import { type FormEvent, useState } from 'react';
import { ROLES, type Role } from '../../shared/backoffice';
import { call } from '../api';
import { ROLE_LABEL, when } from '../format';
import { useOps } from '../hooks';
import { useMe } from '../session';
import { Badge, Button, Card, ErrorLine, Field, PageHead, css as s } from '../ui';

/**
 * Staff (admins): members and roles. Adding one gives a one-time enrolment link to send them;
 * roles change only with a fresh second factor, and never one's own.
 */
export function Staff() {
  const me = useMe();
  const list = useOps('staff', {});
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    const r = await call('staffAdd', { login, name, role });
    setError(r.ok ? null : r.error);
    if (!r.ok) return;
    setLink(r.data.link);
    setLogin('');
    setName('');
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
      <div className={s.split}>
        <Card title="Members" flush>
          <table className={s.table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Login</th>
                <th>Role</th>
                <th>Added</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(list.data ?? []).map((m) => (
                <tr key={m.id}>
                  <td className={s.strong}>{m.name}</td>
                  <td className={s.mono}>{m.login}</td>
                  <td>
                    {m.id === me.id || m.disabled ? (
                      ROLE_LABEL[m.role]
                    ) : (
                      <select
                        className={s.select}
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
                  <td className={s.small}>
                    {when(m.createdAt)} {!m.enrolled && <Badge tone="warn">Not enrolled</Badge>}
                    {m.disabled && <Badge tone="danger">Disabled</Badge>}
                  </td>
                  <td className={s.num}>
                    {m.id !== me.id && !m.disabled && (
                      <Button small tone="danger" onClick={() => void disable(m.id)}>
                        Disable
                      </Button>
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
            <Button tone="primary" type="submit" disabled={!login || !name}>
              Add and make an enrolment link
            </Button>
            {link && (
              <div className={s.notice}>
                Send this link privately; it works once:
                <p className={`${s.secret} ${s.spaced}`}>{link}</p>
              </div>
            )}
          </form>
        </Card>
      </div>
    </>
  );
}
