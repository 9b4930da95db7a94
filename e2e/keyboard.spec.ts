import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fundedUserViaApi, newPhone } from './support';

/**
 * The keyboard alone, as a switch or screen-reader user drives the app. After the first
 * page load nothing is clicked: Tab, Shift+Tab, arrows, Enter and Escape. Each new screen names the
 * document and its heading has the focus; the skip link and the navigation are at the top of the
 * page's order; a dialog gives the focus back to what opened it; an order's outcome takes the
 * focus; nothing focused sits under a bar; under reduced motion nothing animates for ever.
 */
const PASSWORD = 'secret123';

/** Presses Tab (or Shift+Tab) until `target` has the focus; how many presses it took. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}): Promise<number> {
  for (let presses = 0; presses <= max; presses++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return presses;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} not reached in ${max} presses`);
}

/** The focused element is on screen, and no bar fixed over the page (header, bottom bars) covers it. */
async function expectFocusInView(page: Page): Promise<void> {
  const covered = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight)
      return `off screen: ${Math.round(r.top)}–${Math.round(r.bottom)}`;
    const y = (r.top + r.bottom) / 2;
    const x = Math.min(Math.max((r.left + r.right) / 2, 1), window.innerWidth - 1);
    const hit = document.elementFromPoint(x, y);
    return hit && (el.contains(hit) || hit.contains(el)) ? 'clear' : `under ${hit?.outerHTML.slice(0, 80)}`;
  });
  expect(covered).toBe('clear');
}

async function expectNothingEndless(page: Page): Promise<void> {
  const endless = await page.evaluate(
    () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations === Infinity)
        .length,
  );
  expect(endless).toBe(0);
}

test('keyboard only: sign in, buy through the review, log out', async ({ page, playwright, server }) => {
  const api = await playwright.request.newContext({ baseURL: server.url });
  const phone = newPhone();
  await fundedUserViaApi(api, phone, PASSWORD, 50_000);
  await api.dispose();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/login');
  await expect(page.getByLabel('Phone number')).toBeVisible();

  // The skip link is the first stop, shown while focused.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await tabTo(page, page.getByLabel('Phone number'));
  await page.keyboard.type(phone);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Home · Bourse');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expectNothingEndless(page);

  // The navigation is reached from the top of the page, not after every control of Home.
  await page.reload();
  await expect(page.getByRole('link', { name: 'Markets', exact: true })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  expect(await tabTo(page, page.getByRole('link', { name: 'Markets', exact: true }))).toBeLessThanOrEqual(2);
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Markets · Bourse');
  await expect(page.getByRole('heading', { name: 'Markets', level: 1 })).toBeFocused();

  // A radio group is one Tab stop; the arrows choose.
  const regions = page.getByRole('radiogroup', { name: 'Region' });
  await tabTo(page, regions.getByRole('radio', { checked: true }));
  await page.keyboard.press('ArrowRight');
  await expect(regions.getByRole('radio', { name: 'India · BSE' })).toBeFocused();
  await expect(regions.getByRole('radio', { name: 'India · BSE' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(regions.getByRole('radio', { name: 'India · NSE' })).toHaveAttribute('aria-checked', 'true');

  // TCS's row (named as it reads), its detail, Buy.
  await tabTo(page, page.getByRole('link', { name: /^Tata Consultancy Services TCS / }));
  await expectFocusInView(page);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(page).toHaveTitle(/^Tata Consultancy Services/);
  await tabTo(page, page.getByRole('button', { name: 'Buy', exact: true }));
  await expectFocusInView(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/stock\/trading\/TCS\.NS\//);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  // The ticket: the quantity, the review; Escape gives the focus back to Buy.
  await tabTo(page, page.getByRole('textbox', { name: 'Quantity' }));
  await page.keyboard.type('1');
  await expect(page.getByTestId('trade-estimate')).toHaveText(/₹[\d,]+\.\d{2}/);
  const buy = page.getByRole('button', { name: 'Buy TCS' });
  await tabTo(page, buy);
  await expectFocusInView(page);
  await page.keyboard.press('Enter');
  const review = page.getByRole('dialog', { name: 'Buy TCS?' });
  await expect(review).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(review).toHaveCount(0);
  await expect(buy).toBeFocused();

  // Confirmed from the keyboard: the outcome's title takes the focus; Done gives it back to Buy.
  await page.keyboard.press('Enter');
  await tabTo(page, review.getByRole('button', { name: 'Confirm buy' }));
  await page.keyboard.press('Enter');
  const filled = page.getByRole('dialog', { name: 'Order filled' });
  await expect(filled.getByRole('heading', { name: 'Order filled' })).toBeFocused();
  await tabTo(page, filled.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(filled).toHaveCount(0);
  await expect(buy).toBeFocused();

  // Back to Account through the navigation, its settings, Log out.
  await tabTo(page, page.getByRole('button', { name: 'Back' }), { back: true });
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Back' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Markets · Bourse');
  await tabTo(page, page.getByRole('link', { name: 'Account', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Account · Bourse');
  await tabTo(page, page.getByRole('button', { name: 'Settings' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Settings · Bourse');
  const logOut = page.getByRole('button', { name: 'Log out' });
  await tabTo(page, logOut);
  // The last row stops above the service bar (scroll-padding), not under it.
  await expectFocusInView(page);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Log out?' });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(logOut).toBeFocused();
  await page.keyboard.press('Enter');
  await tabTo(page, confirm.getByRole('button', { name: 'Log out' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expectNothingEndless(page);
});
