import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { privateDir, privateFile } from '../lib/private-files';

/**
 * Messages to a member of staff at their own address (an enrolment link): never in an answer to
 * whoever asked for it, so an admin who adds or re-enrols a member cannot take the link and set up
 * the member's factor for them. Delivered as one file per message in STAFF_OUTBOX_DIR (0600 in a
 * 0700 folder), the form a mail relay picks up (`<time>-<random>.eml`: headers, a blank line, the
 * text); in the demo and the tests the folder is where the link is read.
 */

export interface StaffMessage {
  to: string;
  subject: string;
  text: string;
}

/** A member's address: one e-mail address, nothing a header could be smuggled through. */
const ADDRESS = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$/;

export function isContact(text: string): boolean {
  return ADDRESS.test(text);
}

/** The address as an admin may see it: `a•••@example.com`. */
export function maskContact(contact: string): string {
  const [local = '', domain = ''] = contact.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

export function deliver(outboxDir: string, message: StaffMessage, now: number): string {
  if (!isContact(message.to)) throw new Error('not a staff address');
  privateDir(outboxDir);
  const name = `${new Date(now).toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
  const file = path.join(outboxDir, name);
  privateFile(file);
  fs.writeFileSync(
    file,
    [
      `To: ${message.to}`,
      `Subject: ${message.subject.replace(/[\r\n]/g, ' ')}`,
      `Date: ${new Date(now).toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      message.text,
      '',
    ].join('\r\n'),
  );
  return file;
}
