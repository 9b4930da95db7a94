import type { ScheduleId } from './hours';
import type { Instrument, InstrumentKind } from './provider';

/**
 * The catalogue: every instrument the app knows, for every category SPEC uses, with the symbols a
 * Yahoo-style source uses for them. The simulator adds its own parameters (price level, daily
 * volatility, typical volume); a real-data adapter uses the descriptive part only.
 */
export interface Spec extends Instrument {
  /** Typical price (instrument currency) around the reference date of the simulator. */
  base: number;
  /** Daily volatility of the log price, e.g. 0.015 = 1.5 %. */
  vol: number;
  /** Typical daily volume. */
  volume: number;
  /** An IPO candidate: listed only once the seed gives it a listing date. */
  ipo?: boolean;
}

export interface CategorySpec {
  id: number;
  code: string;
  name: string;
  /** Market code of its stocks. */
  market: 'IN' | 'US';
  /** The index shown on its card. */
  indexSymbol: string;
}

export const CATEGORIES: readonly CategorySpec[] = [
  { id: 1, code: 'NSE', name: 'India · NSE', market: 'IN', indexSymbol: '^NSEI' },
  { id: 2, code: 'BSE', name: 'India · BSE', market: 'IN', indexSymbol: '^BSESN' },
  { id: 3, code: 'US', name: 'United States', market: 'US', indexSymbol: '^GSPC' },
];

/** Display names of market codes (SPEC's market_name). */
export const MARKET_NAMES: Record<string, string> = {
  IN: 'India',
  US: 'United States',
  INDEX: 'Indices',
  FOREX: 'Forex',
  FUTURE: 'Futures',
  CGI: 'Treasury debt',
};

type Row = [symbol: string, name: string, base: number, vol: number];

interface Group {
  market: string;
  kind: InstrumentKind;
  region: 'IN' | 'US';
  currency: 'INR' | 'USD';
  schedule: ScheduleId;
  decimals: number;
  /** Typical traded value per day (stocks) or typical volume (others). */
  turnover?: number;
  volume?: number;
  exchange: string | ((symbol: string) => string);
  category?: string;
  ipo?: boolean;
}

const NASDAQ = new Set(
  'AAPL MSFT GOOGL AMZN NVDA META TSLA NFLX ADBE INTC AMD CSCO QCOM TXN COST PEP HLQM'.split(' '),
);
const usExchange = (symbol: string) => (NASDAQ.has(symbol) ? 'NASDAQ' : 'NYSE');

const NSE_STOCKS: Row[] = [
  ['RELIANCE.NS', 'Reliance Industries', 1400, 0.015],
  ['TCS.NS', 'Tata Consultancy Services', 3100, 0.014],
  ['HDFCBANK.NS', 'HDFC Bank', 1000, 0.013],
  ['INFY.NS', 'Infosys', 1500, 0.016],
  ['ICICIBANK.NS', 'ICICI Bank', 1350, 0.014],
  ['HINDUNILVR.NS', 'Hindustan Unilever', 2450, 0.012],
  ['ITC.NS', 'ITC', 410, 0.012],
  ['SBIN.NS', 'State Bank of India', 900, 0.016],
  ['BHARTIARTL.NS', 'Bharti Airtel', 2000, 0.014],
  ['KOTAKBANK.NS', 'Kotak Mahindra Bank', 2100, 0.014],
  ['LT.NS', 'Larsen & Toubro', 3800, 0.015],
  ['AXISBANK.NS', 'Axis Bank', 1150, 0.016],
  ['ASIANPAINT.NS', 'Asian Paints', 2450, 0.014],
  ['MARUTI.NS', 'Maruti Suzuki India', 15500, 0.014],
  ['SUNPHARMA.NS', 'Sun Pharmaceutical Industries', 1650, 0.014],
  ['TITAN.NS', 'Titan Company', 3600, 0.016],
  ['BAJFINANCE.NS', 'Bajaj Finance', 1000, 0.019],
  ['WIPRO.NS', 'Wipro', 250, 0.016],
  ['ULTRACEMCO.NS', 'UltraTech Cement', 12000, 0.014],
  ['NESTLEIND.NS', 'Nestle India', 1250, 0.011],
  ['HCLTECH.NS', 'HCL Technologies', 1550, 0.015],
  ['TATAMOTORS.NS', 'Tata Motors', 680, 0.021],
  ['POWERGRID.NS', 'Power Grid Corporation of India', 290, 0.013],
  ['NTPC.NS', 'NTPC', 335, 0.014],
  ['ONGC.NS', 'Oil & Natural Gas Corporation', 245, 0.017],
  ['TATASTEEL.NS', 'Tata Steel', 170, 0.02],
  ['JSWSTEEL.NS', 'JSW Steel', 1150, 0.018],
  ['ADANIENT.NS', 'Adani Enterprises', 2400, 0.026],
  ['ADANIPORTS.NS', 'Adani Ports and SEZ', 1450, 0.021],
  ['COALINDIA.NS', 'Coal India', 385, 0.016],
  ['BAJAJFINSV.NS', 'Bajaj Finserv', 2000, 0.016],
  ['TECHM.NS', 'Tech Mahindra', 1450, 0.017],
  ['GRASIM.NS', 'Grasim Industries', 2750, 0.014],
  ['DRREDDY.NS', "Dr. Reddy's Laboratories", 1250, 0.014],
  ['CIPLA.NS', 'Cipla', 1550, 0.014],
  ['EICHERMOT.NS', 'Eicher Motors', 6900, 0.016],
  ['HEROMOTOCO.NS', 'Hero MotoCorp', 5500, 0.016],
  ['BRITANNIA.NS', 'Britannia Industries', 5900, 0.012],
  ['DIVISLAB.NS', "Divi's Laboratories", 6300, 0.017],
  ['APOLLOHOSP.NS', 'Apollo Hospitals Enterprise', 7400, 0.015],
  ['INDUSINDBK.NS', 'IndusInd Bank', 750, 0.024],
  ['HDFCLIFE.NS', 'HDFC Life Insurance', 770, 0.015],
  ['SBILIFE.NS', 'SBI Life Insurance', 1850, 0.014],
  ['BPCL.NS', 'Bharat Petroleum Corporation', 340, 0.018],
  ['TATACONSUM.NS', 'Tata Consumer Products', 1150, 0.014],
];

const BSE_STOCKS: Row[] = [
  ['DMART.BO', 'Avenue Supermarts', 4200, 0.016],
  ['PIDILITIND.BO', 'Pidilite Industries', 1500, 0.013],
  ['HAVELLS.BO', 'Havells India', 1550, 0.016],
  ['DABUR.BO', 'Dabur India', 510, 0.012],
  ['GODREJCP.BO', 'Godrej Consumer Products', 1200, 0.014],
  ['SIEMENS.BO', 'Siemens', 3200, 0.019],
  ['BERGEPAINT.BO', 'Berger Paints India', 540, 0.014],
  ['AMBUJACEM.BO', 'Ambuja Cements', 570, 0.017],
  ['SHREECEM.BO', 'Shree Cement', 29500, 0.015],
  ['TRENT.BO', 'Trent', 4700, 0.022],
  ['VEDL.BO', 'Vedanta', 470, 0.022],
  ['HINDALCO.BO', 'Hindalco Industries', 780, 0.018],
  ['GAIL.BO', 'GAIL (India)', 185, 0.018],
  ['BANKBARODA.BO', 'Bank of Baroda', 260, 0.019],
  ['PNB.BO', 'Punjab National Bank', 115, 0.021],
  ['CANBK.BO', 'Canara Bank', 130, 0.02],
  ['IRCTC.BO', 'Indian Railway Catering and Tourism', 720, 0.017],
  ['DLF.BO', 'DLF', 760, 0.021],
  ['LUPIN.BO', 'Lupin', 2000, 0.016],
  ['BIOCON.BO', 'Biocon', 370, 0.019],
  ['MARICO.BO', 'Marico', 720, 0.012],
  ['COLPAL.BO', 'Colgate-Palmolive (India)', 2200, 0.012],
  ['MUTHOOTFIN.BO', 'Muthoot Finance', 3000, 0.017],
  ['PAGEIND.BO', 'Page Industries', 45000, 0.014],
  ['BOSCHLTD.BO', 'Bosch', 36000, 0.015],
  ['ABB.BO', 'ABB India', 5200, 0.02],
  ['TVSMOTOR.BO', 'TVS Motor Company', 3400, 0.017],
  ['INDIGO.BO', 'InterGlobe Aviation', 5700, 0.018],
  ['JUBLFOOD.BO', 'Jubilant FoodWorks', 620, 0.018],
  ['TORNTPHARM.BO', 'Torrent Pharmaceuticals', 3500, 0.013],
];

const US_STOCKS: Row[] = [
  ['AAPL', 'Apple Inc.', 270, 0.016],
  ['MSFT', 'Microsoft Corporation', 500, 0.014],
  ['GOOGL', 'Alphabet Inc.', 280, 0.017],
  ['AMZN', 'Amazon.com Inc.', 230, 0.019],
  ['NVDA', 'NVIDIA Corporation', 185, 0.028],
  ['META', 'Meta Platforms Inc.', 620, 0.022],
  ['TSLA', 'Tesla Inc.', 420, 0.035],
  ['BRK-B', 'Berkshire Hathaway Inc.', 500, 0.01],
  ['JPM', 'JPMorgan Chase & Co.', 300, 0.014],
  ['V', 'Visa Inc.', 340, 0.012],
  ['JNJ', 'Johnson & Johnson', 195, 0.01],
  ['WMT', 'Walmart Inc.', 105, 0.012],
  ['PG', 'Procter & Gamble Co.', 150, 0.01],
  ['MA', 'Mastercard Inc.', 560, 0.013],
  ['UNH', 'UnitedHealth Group Inc.', 330, 0.02],
  ['HD', 'Home Depot Inc.', 370, 0.013],
  ['XOM', 'Exxon Mobil Corporation', 115, 0.014],
  ['CVX', 'Chevron Corporation', 150, 0.014],
  ['KO', 'Coca-Cola Co.', 70, 0.009],
  ['PEP', 'PepsiCo Inc.', 145, 0.011],
  ['BAC', 'Bank of America Corp.', 52, 0.016],
  ['DIS', 'Walt Disney Co.', 112, 0.016],
  ['NFLX', 'Netflix Inc.', 110, 0.022],
  ['ADBE', 'Adobe Inc.', 340, 0.02],
  ['CRM', 'Salesforce Inc.', 240, 0.019],
  ['INTC', 'Intel Corporation', 38, 0.028],
  ['AMD', 'Advanced Micro Devices Inc.', 240, 0.03],
  ['CSCO', 'Cisco Systems Inc.', 72, 0.013],
  ['ORCL', 'Oracle Corporation', 230, 0.024],
  ['NKE', 'Nike Inc.', 65, 0.019],
  ['MCD', "McDonald's Corporation", 300, 0.01],
  ['IBM', 'International Business Machines', 300, 0.015],
  ['QCOM', 'Qualcomm Inc.', 170, 0.02],
  ['TXN', 'Texas Instruments Inc.', 170, 0.017],
  ['COST', 'Costco Wholesale Corporation', 920, 0.012],
  ['ABBV', 'AbbVie Inc.', 225, 0.013],
  ['PFE', 'Pfizer Inc.', 25, 0.014],
  ['MRK', 'Merck & Co. Inc.', 85, 0.013],
  ['T', 'AT&T Inc.', 26, 0.011],
  ['VZ', 'Verizon Communications Inc.', 41, 0.01],
];

/** IPO candidates: fictional companies, so no simulated listing is mistaken for a real one. */
const IPO_IN: Row[] = [
  ['ZENTRIX.NS', 'Zentrix Robotics', 420, 0.028],
  ['AURORAGRN.NS', 'Aurora Green Energy', 185, 0.03],
  ['KAVERIFIN.NS', 'Kaveri Fintech', 310, 0.026],
  ['ORBITLOG.NS', 'Orbit Logistics', 250, 0.027],
  ['MERIDIANH.BO', 'Meridian Healthcare', 540, 0.024],
  ['NILGIRI.BO', 'Nilgiri Foods', 96, 0.025],
];
const IPO_US: Row[] = [['HLQM', 'Helios Quantum Inc.', 24, 0.04]];

const IN_INDICES: Row[] = [
  ['^NSEI', 'NIFTY 50', 25900, 0.009],
  ['^NSEBANK', 'NIFTY Bank', 58000, 0.01],
  ['^CNXIT', 'NIFTY IT', 36000, 0.012],
];
const BSE_INDICES: Row[] = [
  ['^BSESN', 'S&P BSE SENSEX', 84500, 0.009],
  ['BSE-500.BO', 'S&P BSE 500', 37000, 0.01],
];
const US_INDICES: Row[] = [
  ['^GSPC', 'S&P 500', 6700, 0.01],
  ['^DJI', 'Dow Jones Industrial Average', 47000, 0.009],
  ['^IXIC', 'NASDAQ Composite', 23000, 0.013],
];

const FOREX_INR: Row[] = [
  ['USDINR=X', 'USD/INR', 88.7, 0.003],
  ['EURINR=X', 'EUR/INR', 102.5, 0.004],
  ['GBPINR=X', 'GBP/INR', 116.5, 0.005],
  ['JPYINR=X', 'JPY/INR', 0.575, 0.005],
  ['AEDINR=X', 'AED/INR', 24.15, 0.003],
];
const FOREX: Row[] = [
  ['EURUSD=X', 'EUR/USD', 1.157, 0.004],
  ['GBPUSD=X', 'GBP/USD', 1.312, 0.005],
  ['USDJPY=X', 'USD/JPY', 154.5, 0.005],
  ['AUDUSD=X', 'AUD/USD', 0.65, 0.006],
  ['USDCAD=X', 'USD/CAD', 1.4, 0.004],
  ['USDCHF=X', 'USD/CHF', 0.8, 0.005],
  ['NZDUSD=X', 'NZD/USD', 0.565, 0.006],
  ['EURGBP=X', 'EUR/GBP', 0.88, 0.004],
  ['EURJPY=X', 'EUR/JPY', 178.8, 0.005],
  ['GBPJPY=X', 'GBP/JPY', 202.7, 0.006],
  ['USDCNY=X', 'USD/CNY', 7.11, 0.002],
  ['USDSGD=X', 'USD/SGD', 1.3, 0.003],
  ['USDHKD=X', 'USD/HKD', 7.78, 0.0005],
  ['EURCHF=X', 'EUR/CHF', 0.93, 0.004],
  ['USDMXN=X', 'USD/MXN', 18.4, 0.007],
];

/**
 * Futures: the exchange differs per contract; the decimals do not (one decimals rule per
 * instrument kind, so a list's price column reads at one precision — 2, the futures group's).
 */
const FUTURES: Array<[...Row, exchange: string]> = [
  ['GC=F', 'Gold', 4000, 0.012, 'COMEX'],
  ['SI=F', 'Silver', 48, 0.02, 'COMEX'],
  ['HG=F', 'Copper', 5, 0.015, 'COMEX'],
  ['CL=F', 'Crude Oil WTI', 60, 0.022, 'NYMEX'],
  ['BZ=F', 'Brent Crude Oil', 64, 0.02, 'NYMEX'],
  ['NG=F', 'Natural Gas', 4.3, 0.035, 'NYMEX'],
  ['ES=F', 'E-mini S&P 500', 6750, 0.01, 'CME'],
  ['NQ=F', 'E-mini Nasdaq-100', 25000, 0.013, 'CME'],
  ['YM=F', 'E-mini Dow', 47200, 0.009, 'CBOT'],
  ['RTY=F', 'E-mini Russell 2000', 2450, 0.014, 'CME'],
  ['ZC=F', 'Corn', 430, 0.013, 'CBOT'],
  ['ZW=F', 'Wheat', 530, 0.016, 'CBOT'],
  ['ZS=F', 'Soybeans', 1120, 0.012, 'CBOT'],
];

const TREASURY_US: Row[] = [
  ['ZT=F', '2-Year T-Note Futures', 104.2, 0.0015],
  ['ZF=F', '5-Year T-Note Futures', 109, 0.0025],
  ['ZN=F', '10-Year T-Note Futures', 112.5, 0.004],
  ['ZB=F', '30-Year T-Bond Futures', 117, 0.008],
  ['UB=F', 'Ultra T-Bond Futures', 121, 0.01],
];
const TREASURY_IN: Row[] = [
  ['GILT5YBEES.NS', 'Nifty 5 yr Benchmark G-Sec ETF', 64, 0.002],
  ['LTGILTBEES.NS', 'Nifty 8-13 yr G-Sec ETF', 28, 0.003],
  ['SETF10GILT.NS', 'Nifty 10 yr Benchmark G-Sec ETF', 250, 0.003],
];

const IN_STOCK: Omit<Group, 'exchange'> = {
  market: 'IN',
  kind: 'stock',
  region: 'IN',
  currency: 'INR',
  schedule: 'NSE',
  decimals: 2,
  turnover: 6e9,
};
const US_STOCK: Omit<Group, 'exchange'> = {
  market: 'US',
  kind: 'stock',
  region: 'US',
  currency: 'USD',
  schedule: 'US',
  decimals: 2,
  turnover: 2.5e9,
};
const INDEX = { market: 'INDEX', kind: 'index', decimals: 2, volume: 3e8 } as const;

const GROUPS: Array<[Group, Row[]]> = [
  [{ ...IN_STOCK, exchange: 'NSE', category: 'NSE' }, NSE_STOCKS],
  [{ ...IN_STOCK, exchange: 'BSE', category: 'BSE' }, BSE_STOCKS],
  [{ ...US_STOCK, exchange: usExchange, category: 'US' }, US_STOCKS],
  [
    { ...INDEX, region: 'IN', currency: 'INR', schedule: 'NSE', exchange: 'NSE', category: 'NSE' },
    IN_INDICES,
  ],
  [
    { ...INDEX, region: 'IN', currency: 'INR', schedule: 'NSE', exchange: 'BSE', category: 'BSE' },
    BSE_INDICES,
  ],
  [
    { ...INDEX, region: 'US', currency: 'USD', schedule: 'US', exchange: usExchange, category: 'US' },
    US_INDICES,
  ],
  [
    {
      market: 'FOREX',
      kind: 'forex',
      region: 'IN',
      currency: 'INR',
      schedule: 'FX',
      decimals: 4,
      volume: 2e5,
      exchange: 'FX',
    },
    FOREX_INR,
  ],
  [
    {
      market: 'FOREX',
      kind: 'forex',
      region: 'US',
      currency: 'USD',
      schedule: 'FX',
      decimals: 4,
      volume: 2e5,
      exchange: 'FX',
    },
    FOREX,
  ],
  [
    {
      market: 'CGI',
      kind: 'treasury',
      region: 'US',
      currency: 'USD',
      schedule: 'CME',
      // As the Indian G-Sec ETFs of the same list (one decimals rule per kind).
      decimals: 2,
      volume: 8e5,
      exchange: 'CBOT',
    },
    TREASURY_US,
  ],
  [
    {
      market: 'CGI',
      kind: 'treasury',
      region: 'IN',
      currency: 'INR',
      schedule: 'NSE',
      decimals: 2,
      volume: 3e5,
      exchange: 'NSE',
    },
    TREASURY_IN,
  ],
  [{ ...IN_STOCK, exchange: 'NSE', category: 'NSE', ipo: true }, IPO_IN.filter((r) => r[0].endsWith('.NS'))],
  [{ ...IN_STOCK, exchange: 'BSE', category: 'BSE', ipo: true }, IPO_IN.filter((r) => r[0].endsWith('.BO'))],
  [{ ...US_STOCK, exchange: usExchange, category: 'US', ipo: true }, IPO_US],
];

function build(): Spec[] {
  const out: Spec[] = [];
  const add = (g: Group, [symbol, name, base, vol]: Row, exchange: string, decimals: number) => {
    out.push({
      id: out.length + 1,
      symbol,
      name,
      market: g.market,
      exchange,
      kind: g.kind,
      region: g.region,
      currency: g.currency,
      decimals,
      schedule: g.schedule,
      ...(g.category ? { category: g.category } : {}),
      base,
      vol,
      volume: g.turnover ? Math.round(g.turnover / base) : (g.volume ?? 0),
      ...(g.ipo ? { ipo: true } : {}),
    });
  };
  for (const [g, rows] of GROUPS) {
    for (const row of rows)
      add(g, row, typeof g.exchange === 'string' ? g.exchange : g.exchange(row[0]), g.decimals);
  }
  const futures: Group = {
    market: 'FUTURE',
    kind: 'futures',
    region: 'US',
    currency: 'USD',
    schedule: 'CME',
    decimals: 2,
    volume: 2e5,
    exchange: 'CME',
  };
  for (const [symbol, name, base, vol, exchange] of FUTURES) {
    add(futures, [symbol, name, base, vol], exchange, futures.decimals);
  }
  return out;
}

/** Every instrument of the catalogue, in a stable order (ids are positions). */
export const UNIVERSE: readonly Spec[] = build();
