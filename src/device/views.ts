import type { FavouriteState } from '../../workers/favourites';
import type { ChatView } from './chat';

/**
 * The views of the device store the screens read (view.ts) and the live queries that make them
 * (LiveQueries.tsx): the shape both sides share.
 */
export interface DeviceViews {
  /** The favourites the device knows, by symbol, with their pending-sync marks. */
  favourites: Record<string, FavouriteState>;
  /** The customer-service chat: the cached list, the messages waiting to be sent, its age. */
  chat: ChatView;
}
export type DeviceViewName = keyof DeviceViews;
/** A live query's latest value (undefined: forgotten, when no screen wants it any more). */
export type Publish = <K extends DeviceViewName>(name: K, value: DeviceViews[K] | undefined) => void;

/** What the live queries are given by view.ts: which views are wanted, where their values go. */
export interface Host {
  /** The views some component wants now (a new array when that changes). */
  names: () => DeviceViewName[];
  /** Calls back when `names` changes (or a value was published). */
  subscribe: (cb: () => void) => () => void;
  publish: Publish;
  /** The device store's name once the worker has it open (null: none): the worker's `deviceStore`. */
  storeName: () => Promise<string | null>;
}
