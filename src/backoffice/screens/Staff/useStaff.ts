import { type FormEvent, useState } from 'react';
import type { Role } from '../../../shared/backoffice';
import { call } from '../../api';
import { useAction, useOps } from '../../hooks';

/**
 * The members and the admin's decisions — add a member (their enrolment link goes to their own
 * address), re-enrol, change a role, disable — each through one `useAction`; the new member's form.
 */
export function useStaff() {
  const list = useOps('staff', {});
  const action = useAction(list.reload);
  const [login, setLogin] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [contact, setContact] = useState('');

  async function add(e: FormEvent) {
    e.preventDefault();
    const ok = await action.run(
      'add',
      () => call('staffAdd', { login, name, role, contact }),
      (d) => `${d.staff.name}’s enrolment link was sent to ${d.sentTo}.`,
    );
    if (!ok) return;
    setLogin('');
    setName('');
    setContact('');
  }
  const reenrol = (id: number, who: string) =>
    void action.run(
      `reenrol:${id}`,
      () => call('staffReenrol', { id }),
      (d) => `${who}’s factors were removed; a new enrolment link was sent to ${d.sentTo}.`,
    );
  const changeRole = (id: number, next: Role) =>
    void action.run(`role:${id}`, () => call('staffRole', { id, role: next }));
  const disable = (id: number) => void action.run(`disable:${id}`, () => call('staffDisable', { id }));

  return {
    members: list.data ?? [],
    busy: action.busy,
    error: list.error ?? action.error,
    /** What the last add or re-enrolment sent, and where. */
    sent: action.note,
    add,
    reenrol,
    changeRole,
    disable,
    form: { login, setLogin, name, setName, role, setRole, contact, setContact },
  };
}
