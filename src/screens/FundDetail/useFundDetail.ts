import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import type { NavRange } from '../../shared/funds';
import { POLL_MS } from '../../shared/rules';

/**
 * A fund's page: the fund from the list (its latest NAV, returns and costs), its NAV history over
 * the chosen range, the user's units in it, and which sheet is open (invest or redeem).
 */
export function useFundDetail() {
  const { id: param } = useParams();
  const id = Number(param);
  const valid = Number.isInteger(id) && id > 0;
  const [range, setRange] = useState<NavRange>('1y');
  const [sheet, setSheet] = useState<'invest' | 'redeem' | null>(null);
  const list = useWatch('fundList', {}, 0);
  const nav = useWatch('fundNav', valid ? { id, range } : null, 0);
  const positions = useWatch('fundPositions', {}, POLL_MS.prices);
  const fund = list.data?.rows.find((f) => f.id === id);
  const position = positions.data?.rows.find((p) => p.fund_id === id);

  function done(): void {
    setSheet(null);
    list.reload();
    positions.reload();
  }

  return {
    id,
    list,
    fund,
    missing: !valid || (list.data !== undefined && fund === undefined),
    nav,
    range,
    setRange,
    positions,
    position,
    sheet,
    setSheet,
    done,
  };
}
