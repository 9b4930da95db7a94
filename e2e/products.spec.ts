import { expect, test } from './fixtures';
import { expectAccessible, loginFresh, snap } from './support';

/**
 * Honest product pages: what each product costs, risks and promises, shown before the
 * user commits — IPO window and dates, a fund's NAV, returns, riskometer and costs with the disclosure, loan
 * terms and the credit score, block/QIP eligibility, lock-in, risk and the exchange rate.
 */
test('product pages: IPO, funds, loans, block and QIP say what they are before you commit', async ({
  page,
}) => {
  await loginFresh(page, '/ipo');
  const ipos = page.getByRole('list', { name: 'IPO' }).getByRole('listitem');
  await expect(ipos.first()).toBeVisible();
  await expect(ipos.first().getByText(/^(Open|Upcoming|Closed|Listed)$/)).toBeVisible();
  await expect(ipos.first().getByText('Lot size')).toBeVisible();
  await expect(ipos.first().getByText('Allotment date')).toBeVisible();
  await expect(page.getByText('Forthcoming')).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'product-ipo');

  await page.goto('/fund-investment');
  const fund = page.getByRole('listitem').first();
  // A mutual fund — its NAV and yearly returns from its history, the AMC, the riskometer
  // and the costs, the disclosure beside the returns; nothing promised, nothing "subscribed".
  await expect(fund.getByText(/^NAV of /)).toBeVisible();
  await expect(fund.getByText('1Y return')).toBeVisible();
  await expect(fund.getByText(/ risk$/)).toBeVisible();
  await expect(fund.getByText(/^Expense ratio [\d.]+%$/)).toBeVisible();
  await expect(page.getByTestId('fund-disclosure')).toContainText('subject to market risks');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByText(/paid automatically|subscribed|maturity/)).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'product-funds');

  await page.goto('/loan');
  const terms = page.getByRole('region', { name: 'Before you apply' });
  await expect(terms.getByText('Interest rate')).toBeVisible();
  await expect(terms.getByText('Tenure')).toBeVisible();
  await expect(terms.getByText('Late charges')).toBeVisible();
  await expect(terms.getByText(/Your credit score is \d+/)).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'product-loans');
  await page.getByRole('button', { name: 'Apply for a loan' }).click();
  await page.getByRole('dialog').getByLabel('Loan amount').fill('5000');
  // 14 % a year for the 90-day tenure: 5,000.00 × 0.14 × 90 / 365 = 172.60.
  await expect(page.getByTestId('loan-total')).toHaveText(/^Total repayable: ₹5,172\.60/);
  await expect(page.getByTestId('loan-card')).toContainText('Borrowed money · to be repaid');
  await snap(page, 'product-loan-apply');
  await page.keyboard.press('Escape');

  for (const [path, name] of [
    ['/block-trading', 'product-block'],
    ['/qip', 'product-qip'],
  ] as const) {
    await page.goto(path);
    const notes = page.getByTestId('product-notes');
    await expect(notes.getByText(/^Who may buy/)).toBeVisible();
    await expect(notes.getByText(/^Lock-in/)).toBeVisible();
    await expect(notes.getByText(/^Risk/)).toBeVisible();
    // Where the block price sits, said plainly; availability without urgency.
    const lot = page.getByRole('listitem').first();
    await expect(lot.getByTestId('vs-market')).toHaveText(/^Block price [+−-]?[\d.]+% vs market$/);
    await expect(lot.getByText(/^Available: [\d,]+ shares$/)).toBeVisible();
    await expect(lot.getByText(/left/)).toHaveCount(0);
    if (path === '/qip') {
      await expect(
        notes.getByText(/^Lots priced in US dollars \(marked US\) are converted at the live US dollar rate/),
      ).toBeVisible();
      // The rate itself, from the server's one rate: the live quote here (the simulator's USDINR).
      await expect(page.getByTestId('usd-rate')).toContainText(/^Rate: 1 USD = ₹[\d,.]+Live market rate/);
    }
    await expectAccessible(page);
    await snap(page, name);
  }
});
