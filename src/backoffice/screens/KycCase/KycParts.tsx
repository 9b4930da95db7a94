import { Link } from 'react-router-dom';
import type { KycFlag, KycRejectionReason } from '../../../shared/backoffice';
import { OPS_PATHS } from '../../paths';
import { css as s } from '../../ui';

/** The parts of real-name review: the reasons' words, a case's warnings, the ID types' names. */

/** What each reason means, and what the customer reads (in their own language, in the app). */
export const REASONS: Record<KycRejectionReason, { label: string; customer: string }> = {
  photos: {
    label: 'Ask for new photos',
    customer: 'We need new photos of your ID: the ones sent cannot be used.',
  },
  unreadable: { label: 'Details unreadable', customer: 'We could not read the details on your ID.' },
  mismatch: {
    label: 'Details do not match',
    customer: 'The name or number you typed does not match your ID.',
  },
  expired: { label: 'Document expired', customer: 'The ID you sent has expired. Please use a valid one.' },
  other: { label: 'Other', customer: 'Your submission was not accepted. (Write your reason below.)' },
};

/** A case's warnings as the officer reads them, each customer named and linked. */
export function KycFlags({ flags }: { flags: KycFlag[] }) {
  if (flags.length === 0) return null;
  return (
    <ul className={s.warnBanner} aria-label="Check before deciding">
      {flags.map((f) =>
        f.code === 'samePhoto' ? (
          <li key={f.code}>The front and back photos are the same picture.</li>
        ) : (
          <li key={f.code}>
            This ID number is {f.code === 'idNumberApproved' ? 'already approved' : 'under review'} for{' '}
            {f.customers.map((o, i) => (
              <span key={o.userId}>
                {i > 0 && ', '}
                <Link to={OPS_PATHS.customer(o.userId)}>{o.name}</Link>
              </span>
            ))}
            .
          </li>
        ),
      )}
    </ul>
  );
}

export const ID_TYPE: Record<string, string> = {
  idCard: 'Aadhaar / ID card',
  driver: "Driver's licence",
  passport: 'PAN / passport',
  other: 'Other',
};
