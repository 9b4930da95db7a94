import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useWatch } from '../api/hooks';
import { useConfig } from '../api/useConfig';
import { PATHS } from '../paths';
import { useSession } from '../store/session';

/** Where customer service lives (SPEC §7 `kefu`: an in-app route or a URL). */
export type ServiceTarget = { kind: 'route'; to: string } | { kind: 'url'; href: string };

const IN_APP: ServiceTarget = { kind: 'route', to: PATHS.customerService };

/**
 * Reads the `kefu` answer (its `data`, a string): a path of this app is a route, an http(s) address
 * is opened outside the app; anything else (missing, not loaded yet, `javascript:`, not a string —
 * such as the `{ url }` object an older server answered, still kept on a device) is the in-app chat.
 */
export function serviceTarget(answer: unknown): ServiceTarget {
  const value = typeof answer === 'string' ? answer.trim() : '';
  if (value.startsWith('/') && !value.startsWith('//')) return { kind: 'route', to: value };
  if (/^https?:\/\//i.test(value)) {
    try {
      return { kind: 'url', href: new URL(value).href };
    } catch {
      return IN_APP;
    }
  }
  return IN_APP;
}

/**
 * Customer service for the Home icon and the floating button alike: shown only when the
 * customer-service flag of `/v2/config` is on (and someone is signed in), going where `kefu` says.
 */
export function useCustomerService(): { on: boolean; target: ServiceTarget } {
  const { customerService } = useConfig();
  const signedIn = useSession((st) => st.token !== null);
  const on = customerService && signedIn;
  const kefu = useWatch('kefu', on ? {} : null, 0);
  return { on, target: serviceTarget(kefu.data) };
}

/** A link to customer service: a router link for a route, a new tab for a URL. */
export function ServiceLink({
  target,
  className,
  label,
  children,
  ...data
}: {
  target: ServiceTarget;
  className?: string;
  label: string;
  children: ReactNode;
  /** Marks for tests and measurements (`data-service-button`). */
  [data: `data-${string}`]: string;
}) {
  return target.kind === 'route' ? (
    <Link to={target.to} className={className} aria-label={label} {...data}>
      {children}
    </Link>
  ) : (
    <a
      href={target.href}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      aria-label={label}
      {...data}
    >
      {children}
    </a>
  );
}
