/**
 * Keys of the device store's `meta` table that the sync worker writes and the screens read
 * (src/device/): written once, here, for both.
 */
export const DEVICE_META = {
  /** When the customer-service list was last fetched (epoch ms). */
  chatFetchedAt: 'messages.fetchedAt',
  /** When a refresh of that list last failed (epoch ms); removed by the next good one. */
  chatFailedAt: 'messages.failedAt',
} as const;
