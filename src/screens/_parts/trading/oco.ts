import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../api/useConfig';
import type { OrderRow } from '../../../shared/contract/trading';
import { regionPrice } from '../invest/parts';
import { priceDecimals } from './parts';

/** The texts of an OCO order's two legs and of the one that fired. */
export interface OcoTexts {
  /** "₹2,700.00 → limit ₹2,690.00"; "gone (stop fired)" once the other leg has fired. */
  target: string;
  stop: string;
  /** "₹2,300.00 (stop)" once a leg has fired; null before. */
  fired: string | null;
  /** "target ₹2,700.00 / stop ₹2,300.00" */
  short: string;
}

/**
 * The words for an OCO's legs, one place for the ticket's pending list, the records card and the
 * modify sheet: each leg as its trigger and limit, and which one fired at which trigger.
 */
export function useOcoTexts(): (order: OrderRow) => OcoTexts | null {
  const { t } = useTranslation();
  const config = useConfig();
  return (order) => {
    if (order.order_type !== 'oco' || order.trigger_price === null || order.stop_trigger === null)
      return null;
    const price = (p: number) => regionPrice(config, order.type, p, priceDecimals(p));
    const leg = (trigger: number, limit: number | null) =>
      t('trade.gtt.leg', { trigger: price(trigger), limit: limit === null ? '—' : price(limit) });
    const firedAt = order.fired_leg === 'stop' ? order.stop_trigger : order.trigger_price;
    // Once a leg has fired the other is gone with it (one order, one reservation): it says so.
    const gone = order.fired_leg
      ? t('trade.gtt.legGone', { leg: t(`trade.gtt.legName.${order.fired_leg}`) })
      : null;
    return {
      target: order.fired_leg === 'stop' && gone ? gone : leg(order.trigger_price, order.target_limit),
      stop: order.fired_leg === 'target' && gone ? gone : leg(order.stop_trigger, order.stop_limit),
      fired: order.fired_leg
        ? t('trade.gtt.fired', { price: price(firedAt), leg: t(`trade.gtt.legName.${order.fired_leg}`) })
        : null,
      short: t('trade.gtt.legs', { target: price(order.trigger_price), stop: price(order.stop_trigger) }),
    };
  };
}
