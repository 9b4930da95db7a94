import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SimulatedMark } from '../../../shell/SimulatedMark';
import { toast } from '../../../store/ui';
import { CodeSearch, HeaderLink, PageHeader, ui } from '../../../ui';
import s from './market.module.css';

/** SPEC §5: an empty trimmed code is not searched. */
const ENTER_CODE = 'markets.lists.enterCode';

/**
 * The frame the forex, futures and treasury debt lists share: title, positions link, a code
 * search (button or Enter) and the list for the searched code. An empty search warns and shows
 * the whole list again.
 */
export function MarketListScreen({
  title,
  positions,
  searchLabel,
  children,
}: {
  title: string;
  /** The holdings of this type (/trade-no-nav/...). */
  positions: string;
  searchLabel: string;
  /** The list for the searched code; `clear` shows the whole list again (a no-match's next step). */
  children: (code: string, clear: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [code, setCode] = useState('');

  function submit() {
    const trimmed = text.trim();
    if (!trimmed) toast(ENTER_CODE, 'error');
    setCode(trimmed);
  }

  return (
    <main className={ui.page}>
      <PageHeader
        title={title}
        actions={<HeaderLink to={positions} label={t('markets.lists.positions')} />}
      />
      <CodeSearch
        label={searchLabel}
        placeholder={t('markets.lists.codePlaceholder')}
        value={text}
        onChange={setText}
        onSubmit={submit}
        button={t('markets.lists.search')}
        className={s.searchBar}
      />
      <div className={s.toolbar}>
        <SimulatedMark />
      </div>
      {children(code, () => {
        setText('');
        setCode('');
      })}
    </main>
  );
}
