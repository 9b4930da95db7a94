import { ROLES, type Role } from '../../../shared/backoffice';
import { ROLE_LABEL, when } from '../../format';
import { useMe } from '../../session';
import { Badge, Button, Card, ErrorLine, Field, PageHead, css as s } from '../../ui';
import { useStaff } from './useStaff';

/**
 * Staff (admins): members and roles. Adding a member sends their one-time enrolment link to their
 * own address (the admin never sees it); a member who lost their factor is re-enrolled the same
 * way. Roles change only with a fresh second factor, and never one's own. The decisions: useStaff.
 */
export function StaffScreen() {
  const me = useMe();
  const staff = useStaff();
  const { sent, changeRole, reenrol, disable, add } = staff;
  const { login, setLogin, name, setName, role, setRole, contact, setContact } = staff.form;

  return (
    <>
      <PageHead title="Staff" subtitle="Each member signs in with a password and a second factor." />
      <ErrorLine error={staff.error} />
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
              {staff.members.map((m) => (
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
                        onChange={(e) => changeRole(m.id, e.target.value as Role)}
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
                          <Button
                            small
                            busy={staff.busy === `reenrol:${m.id}`}
                            onClick={() => reenrol(m.id, m.name)}
                          >
                            Re-enrol
                          </Button>
                        )}
                        <Button
                          small
                          tone="danger"
                          busy={staff.busy === `disable:${m.id}`}
                          onClick={() => disable(m.id)}
                        >
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
            <Button
              tone="primary"
              type="submit"
              busy={staff.busy === 'add'}
              disabled={!login || !name || !contact}
            >
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
