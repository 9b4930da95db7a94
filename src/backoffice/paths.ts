/**
 * The back office's routes under /ops/, written once: every link and navigation of its screens
 * comes from here (as src/paths.ts is the app's).
 */
export const OPS_PATHS = {
  queues: '/',
  chats: '/chats',
  chat: (userId: number | string) => `/chats/${userId}`,
  kycList: '/kyc',
  kyc: (userId: number | string) => `/kyc/${userId}`,
  payouts: '/payouts',
  payout: (id: number | string) => `/payouts?focus=${id}`,
  deposits: '/deposits',
  deposit: (id: number | string) => `/deposits?focus=${id}`,
  loans: '/loans',
  ipo: '/ipo',
  fx: '/fx',
  news: '/news',
  audit: '/audit',
  auditAt: (seq: number) => `/audit?seq=${seq}`,
  staff: '/staff',
  customers: '/customers',
  customer: (id: number | string) => `/customers/${id}`,
  enrol: '/enrol',
} as const;
