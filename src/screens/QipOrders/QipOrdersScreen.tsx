import { BlockOrders } from '../BlockOrders/BlockOrdersScreen';

/** QIP orders (SPEC §2, /qip/orders): tabs all, failed, success. */
export default function QipOrdersScreen() {
  return <BlockOrders mold="finalize" />;
}
