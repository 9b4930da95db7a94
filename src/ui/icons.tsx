import type { SVGProps } from 'react';
import { ICON_PATHS, LineIcon } from '../common/icons';

/** Line icons drawn for Bourse (24×24, currentColor; drawn as both apps draw them: src/common). */
type IconProps = SVGProps<SVGSVGElement> & { size?: number };

const make =
  (paths: string) =>
  ({ size = 22, ...props }: IconProps) => <LineIcon d={paths} size={size} {...props} />;

export const IconHome = make('M3 10.5 12 3l9 7.5|M5 9.5V21h14V9.5|M10 21v-6h4v6');
export const IconMarkets = make('M3 20h18|M6 16V10|M10 16V6|M14 16v-4|M18 16V8');
export const IconStar = make('M12 3.5l2.6 5.3 5.9.9-4.2 4.1 1 5.8L12 16.9l-5.3 2.7 1-5.8-4.2-4.1 5.9-.9z');
export const IconTrade = make('M4 7h13l-3-3|M20 17H7l3 3');
export const IconAccount = make('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z|M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6');
export const IconBack = make('M15 5l-7 7 7 7');
export const IconChevron = make('M9 5l7 7-7 7');
export const IconSearch = make(ICON_PATHS.search);
export const IconSettings = make(
  'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z|M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
);
export const IconService = make(
  'M4 13v-1a8 8 0 0 1 16 0v1|M4 13h3v5H5a1 1 0 0 1-1-1zM20 13h-3v5h2a1 1 0 0 0 1-1z|M17 18c0 1.5-2 3-5 3',
);
export const IconGlobe = make(
  'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z|M3 12h18|M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z',
);
export const IconEye = make(
  'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z|M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
);
export const IconEyeOff = make(
  'M3 3l18 18|M10.6 5.1A10.6 10.6 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-3.2 4.1|M6.6 6.6C3.9 8.3 2 12 2 12s3.5 7 10 7c1.6 0 3-.4 4.3-1',
);
export const IconPhone = make(
  'M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z|M11 18h2',
);
export const IconLock = make(ICON_PATHS.lock);
export const IconKey = make('M8 15a4 4 0 1 1 0-8 4 4 0 0 1 0 8z|M12 11h9|M18 11v3|M21 11v2');
export const IconFingerprint = make(
  'M6.5 17.5c1-2 1.5-4 1.5-6a4 4 0 0 1 8 0c0 3-.5 5.5-1.5 8|M12 11.5c0 3.5-1 6.5-3 9|M4.5 13c.3-1 .5-2 .5-3a7 7 0 0 1 14 0c0 1.5-.1 3-.4 4.5|M18.5 18c.2-.6.4-1.3.5-2',
);
export const IconTicket = make('M4 7h16v3a2 2 0 0 0 0 4v3H4v-3a2 2 0 0 0 0-4z|M14 7v10');
export const IconLogout = make('M15 4h3a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-3|M10 16l-4-4 4-4|M6 12h10');
export const IconCard = make('M3 6h18v12H3z|M3 10h18|M7 15h4');
export const IconShield = make('M12 3l8 3v6c0 4.5-3.4 8.2-8 9-4.6-.8-8-4.5-8-9V6z|M8.5 12l2.5 2.5 4.5-5');
export const IconSend = make('M4 12l16-8-6 16-2.5-6.5z|M11.5 13.5 20 4');
export const IconCamera = make('M4 8h4l2-3h4l2 3h4v11H4z|M12 17a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z');
export const IconNews = make('M5 4h12v16H6a1 1 0 0 1-1-1z|M17 8h2v11a1 1 0 0 1-2 0|M8 8h6|M8 12h6|M8 16h4');
export const IconWallet = make('M4 7h15a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4z|M4 7l12-3v3|M16 13.5h1');
export const IconEmpty = make('M4 7h16l-2 12H6z|M9 11h6');
export const IconAlert = make('M12 3l10 18H2z|M12 10v4|M12 17.5v.5');
export const IconOffline = make(
  'M2 8.5a15 15 0 0 1 5-3|M22 8.5a15 15 0 0 0-9.5-4|M5 12a10 10 0 0 1 3-2|M19 12a10 10 0 0 0-4.5-2.3|M9 15.5a5 5 0 0 1 6 0|M12 19h.01|M3 3l18 18',
);
export const IconClose = make('M6 6l12 12|M18 6L6 18');
export const IconCheck = make(ICON_PATHS.check);
/** Watchlists, alerts and the inbox. */
export const IconBell = make('M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z|M10 20.5a2 2 0 0 0 4 0');
export const IconChart = make('M4 4v16h16|M7 14l4-4 3 3 5-6');
export const IconPlus = make('M12 5v14|M5 12h14');
export const IconTrash = make('M5 7h14|M10 7V4h4v3|M7 7l1 13h8l1-13');
export const IconUp = make('M6 15l6-6 6 6');
export const IconDown = make('M6 9l6 6 6-6');
export const IconEdit = make('M4 20h4L19 9l-4-4L4 16z|M13 7l4 4');
/** Money in: an arrow down into a tray. */
export const IconDeposit = make('M12 3v12|M7 10l5 5 5-5|M4 17v3h16v-3');
/** Money out: an arrow up out of a tray. */
export const IconWithdraw = make('M12 15V3|M7 8l5-5 5 5|M4 17v3h16v-3');
/** A receipt: account changes. */
export const IconReceipt = make('M6 3h12v18l-3-2-3 2-3-2-3 2z|M9 8h6|M9 12h6');
/** A clock with a back arrow: records. */
export const IconHistory = make('M3 12a9 9 0 1 0 3-6.7|M3 4v4h4|M12 7v5l3 2');
/** Stacked coins: loans. */
export const IconCoins = make(
  'M4 7c0-1.7 3.1-3 7-3s7 1.3 7 3-3.1 3-7 3-7-1.3-7-3z|M4 7v5c0 1.7 3.1 3 7 3s7-1.3 7-3V7|M4 12v5c0 1.7 3.1 3 7 3s7-1.3 7-3v-5',
);
/* Home's quick-access tiles (inline SVG like the rest: no icon font). */
/** Three stacked blocks: block trading. */
export const IconBlocks = make('M4 14h7v6H4z|M13 14h7v6h-7z|M8.5 6h7v6h-7z');
/** A flag on a pole: a new listing (IPO). */
export const IconFlag = make('M5 21V4|M5 4h12l-2.5 4L17 12H5');
/** A pillared building: institutions (QIP). */
export const IconInstitution = make('M3 21h18|M4 10h16|M12 3l8 5H4z|M6 10v8|M10 10v8|M14 10v8|M18 10v8');
/** A pie with a slice out: funds. */
export const IconPie = make('M12 3v9h9|M20.5 15.5A9 9 0 1 1 8.5 3.7');
/** Two opposite arrows: currency exchange (forex). */
export const IconExchange = make('M7 4 3 8l4 4|M3 8h14|M17 12l4 4-4 4|M21 16H7');
/** An hourglass: contracts that settle later (futures). */
export const IconHourglass = make(
  'M6 3h12|M6 21h12|M7 3c0 4 3 6 5 9-2 3-5 5-5 9|M17 3c0 4-3 6-5 9 2 3 5 5 5 9',
);
/** A certificate with its folded corner and lines: bonds (treasury debt). */
export const IconBond = make('M5 3h10l4 4v14H5z|M15 3v4h4|M9 12h6|M9 16h4');
/** iOS Safari's Share button: a box with an arrow up out of it (the home-screen guide). */
export const IconShare = make('M12 3v12|M8 7l4-4 4 4|M6 11H5v10h14V11h-1');
/** iOS's "Add to Home Screen": a plus in a rounded square. */
export const IconAddSquare = make('M4 4h16v16H4z|M12 8v8|M8 12h8');
/** A phone (the app on the home screen). */
export const IconDevice = make('M7 2h10v20H7z|M11 18h2');
