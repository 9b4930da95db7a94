/**
 * The demo's articles. They describe this app and its simulated market, not real-world events,
 * so nothing here can go stale or mislead. Stored through the same sanitiser as the operator's
 * `news:publish`.
 */
export interface SeedArticle {
  title: string;
  subhead: string;
  img: string | null;
  /** Hours before seeding: gives the list a stable, newest-first order. */
  hoursAgo: number;
  html: string;
}

export const SEED_ARTICLES: SeedArticle[] = [
  {
    title: 'Benchmark index recovers after a three-week pullback',
    subhead: 'Banks and IT services led the rebound on the simulated exchange as volumes returned.',
    img: '/news/nifty-recovery.jpg',
    hoursAgo: 2,
    html: `<p>The benchmark index on the Bourse simulated exchange closed higher for a fifth straight
session, recovering most of the ground it gave up over the previous three weeks. Gains were broad:
roughly two in three listed names finished in the green.</p>
<h2>What moved</h2>
<ul>
<li><strong>Banks</strong> added to their early gains through the afternoon as turnover rose well
above its twenty-day average.</li>
<li><strong>IT services</strong> recovered after a sharp sell-off earlier in the month.</li>
<li><strong>Metals</strong> lagged, and were the only sector to end the week lower.</li>
</ul>
<p>The five-day moving average has turned up again and now sits above the twenty-day line, a pattern
many chartists read as a change of short-term trend. It is not a forecast: the same setup has failed
often enough that position size matters more than the signal.</p>
<blockquote>Prices in this demo come from a market simulator. They move like a real market but are
not quotes from any exchange.</blockquote>
<p>Open any stock from <em>Markets</em> to see its day, week and month candles with MA&nbsp;5, 10
and 20.</p>`,
  },
  {
    title: 'How an IPO application works, from freeze to allotment',
    subhead: 'Why money leaves your available balance when you apply, and when it comes back.',
    img: null,
    hoursAgo: 26,
    html: `<p>When you apply for a forthcoming IPO, the full amount of your application — quantity
times the issue price — is <strong>frozen</strong> at once. It no longer counts as available
balance, so the same money cannot be spent twice while the issue is open.</p>
<h2>After the issue closes</h2>
<ol>
<li>Shares are <strong>allotted</strong>. Allotted shares appear in your holdings at the issue
price.</li>
<li>Whatever was not allotted is <strong>refunded</strong> to your balance, and the refund shows in
your account history as its own line.</li>
</ol>
<p>Quantities move in steps of 100, between the minimum and maximum the issue allows. Only issues
marked <em>Forthcoming</em> accept applications.</p>`,
  },
  {
    title: 'Block trades and QIP: what the minimum quantity means',
    subhead: 'Large orders at a negotiated price, a 0.03% fee, and your transaction password.',
    img: null,
    hoursAgo: 50,
    html: `<p>A block trade buys a large lot of one stock at a block price agreed for the whole lot,
rather than filling against the order book. Each block item has a <strong>minimum quantity</strong>
(100 unless stated otherwise); you can buy more, never less.</p>
<p>Every block purchase carries a fee of <strong>0.03%</strong> of its value, shown before you
confirm. Because the amounts are large, the purchase also asks for your six-digit
<strong>transaction password</strong>. You can set it under <em>Settings</em>.</p>
<p>Qualified institutional placements (QIP) work the same way in this app and have their own list
and order history.</p>`,
  },
  {
    title: 'Five habits that keep a trading account safe',
    subhead: 'Passwords, devices and the messages you should never answer.',
    img: null,
    hoursAgo: 74,
    html: `<ol>
<li><strong>Use a login password you use nowhere else.</strong> Changing it signs out every other
device at once.</li>
<li><strong>Set a transaction password.</strong> Six digits, different from your login password.
After five wrong attempts it locks for fifteen minutes.</li>
<li><strong>Withdraw only to your own bank cards.</strong> Cards are checked when you add them, and
a card cannot be edited while a withdrawal to it is on its way.</li>
<li><strong>Never share a password</strong> with anyone — customer service will never ask for it.</li>
<li><strong>Log out on shared devices.</strong> Logging out removes your data from that device.</li>
</ol>`,
  },
  {
    title: 'Withdrawals: how long they take and what a refund means',
    subhead: 'The amount is reserved the moment you ask, and returned in full if the payout fails.',
    img: null,
    hoursAgo: 98,
    html: `<p>When you ask for a withdrawal, the amount leaves your available balance straight away and
the request shows as <em>in progress</em>. This reservation is what guarantees the money is still
there when the payout is made.</p>
<p>Most payouts complete within 24 hours. If a payout cannot be made — for example, the bank
declines the account — the request is marked <em>failed</em> and the full amount comes back as a
<strong>withdrawal refund</strong>, listed in your account history.</p>
<p>The minimum withdrawal is shown on the withdraw screen; it is set by the platform and is the same
for everyone.</p>`,
  },
];
