import { ROLES } from '#shared/backoffice';
import { addStaff, disableStaff, type Enrolment, listStaff, reenrolStaff } from '../../backoffice/staff';
import type { Deps } from '../../deps';
import { idArg, options } from './args';
import type { OpsCommand } from './command';
import { consoleError, operatorActor } from './operator';

/**
 * The back office's staff from the console: the first admin comes from here (the back office needs
 * a member to sign in), with a one-time enrolment link to set a password and a second factor,
 * printed once on the server's public address (OPS_PUBLIC_URL, else the first of WEBAUTHN_ORIGINS,
 * else the one the server recorded when it started; never the console's own PORT) and, with `--contact`, sent to the member as well.
 */

function linkLines(deps: Deps, done: Enrolment): string[] {
  const hours = Math.round(deps.config.ops.enrolMs / 3_600_000);
  return [
    `One-time enrolment link (works once, for ${hours} hours; send it privately):`,
    `  ${done.link}`,
    ...(done.sentTo ? [`Also sent to ${done.sentTo}.`] : []),
  ];
}
export const STAFF_COMMANDS: OpsCommand[] = [
  {
    name: 'staff:add',
    usage: `staff:add <login> --role <${ROLES.join('|')}> [--name N] [--contact e-mail]`,
    summary: 'add a member of staff; prints their one-time enrolment link (password and second factor)',
    mutates: true,
    async run(deps, args, actor) {
      const { positional, named } = options(args);
      const [login] = positional;
      if (!login || !named.role) throw new Error(`Usage: staff:add <login> --role <${ROLES.join('|')}>`);
      const done = await addStaff(deps, operatorActor(deps, actor), {
        login,
        name: named.name,
        role: named.role,
        contact: named.contact,
      }).catch((err: unknown) => {
        throw consoleError(err, `Could not add ${login}`);
      });
      return [
        `Added ${done.staff.login} (${done.staff.role}), staff id ${done.staff.id}.`,
        ...linkLines(deps, done),
      ].join('\n');
    },
  },
  {
    name: 'staff:reenrol',
    usage: 'staff:reenrol <staffId>',
    summary:
      "a member's lost factor: ends their sessions, removes their factors, prints a new enrolment link",
    mutates: true,
    async run(deps, [arg], actor) {
      const id = idArg(arg, 'staff');
      const done = await reenrolStaff(deps, operatorActor(deps, actor), id).catch((err: unknown) => {
        throw consoleError(err, `No active member ${id}`);
      });
      return [`Member ${id} (${done.staff.login}) must enrol again.`, ...linkLines(deps, done)].join('\n');
    },
  },
  {
    name: 'staff:list',
    usage: 'staff:list',
    summary: 'the members of staff, their roles and whether they enrolled',
    mutates: false,
    run: (deps) => listStaff(deps),
  },
  {
    name: 'staff:disable',
    usage: 'staff:disable <staffId>',
    summary: 'disable a member of staff: every session ends, no sign-in works again',
    mutates: true,
    async run(deps, [arg], actor) {
      const id = idArg(arg, 'staff');
      await disableStaff(deps, operatorActor(deps, actor), id).catch((err: unknown) => {
        throw consoleError(err, `No active member ${id}`);
      });
      return `Member ${id} disabled`;
    },
  },
];
