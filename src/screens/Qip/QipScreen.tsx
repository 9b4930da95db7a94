import { BlockMarket } from '../BlockTrading/BlockTradingScreen';

/** QIP (SPEC §2, /qip): block trading of mold finalize, with the converted amount at the configured rate. */
export default function QipScreen() {
  return <BlockMarket mold="finalize" />;
}
