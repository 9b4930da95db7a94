import type { TFunction } from 'i18next';

/**
 * The server names its categories and markets in English (SPEC §3 `category_name`, `market_name`);
 * the app shows them in the user's language, by code, and the server's own name for a
 * code it does not know yet.
 */
export function categoryName(
  t: TFunction,
  category: { category_code: string; category_name: string },
): string {
  return t(`markets.categoryNames.${category.category_code}`, { defaultValue: category.category_name });
}

export function marketName(t: TFunction, market: string, serverName?: string): string {
  return t(`markets.marketNames.${market}`, { defaultValue: serverName || market });
}
