import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../api/connection';
import { PATHS } from '../../paths';
import type { BankCard } from '../../shared/contract/settings';
import { cardLastFour } from '../../shared/format';
import { TradePasswordPrompt } from '../../shell/TradePasswordPrompt';
import { toast } from '../../store/ui';
import {
  Button,
  CardNumber,
  Dialog,
  EmptyState,
  IconCard,
  ListStates,
  loadFailed,
  PageHeader,
  TextField,
  ui,
} from '../../ui';
import p from '../_parts/settings/settings.module.css';
import { type CardForm, useBankCards, useCardForm } from './useBankCards';

/** Bank cards (SPEC §2): list with masked numbers, add, edit. */
export default function BankCardsScreen() {
  const { t } = useTranslation();
  const list = useBankCards();
  const online = useOnline();
  const [editing, setEditing] = useState<BankCard | 'new' | null>(null);
  const cards = list.data;

  return (
    <main className={ui.clearOfService}>
      <PageHeader title={t('bankCards.title')} back={PATHS.settings} />
      <ListStates
        rows={cards}
        error={loadFailed(list.error, 'bankCards.loadFailed')}
        onRetry={list.reload}
        skeleton={{ rows: 2, height: 150 }}
        empty={
          <EmptyState title={t('bankCards.empty')} icon={<IconCard size={28} />}>
            <Button onClick={() => setEditing('new')} disabled={!online}>
              {t('bankCards.add')}
            </Button>
          </EmptyState>
        }
      >
        {(cards) => (
          <>
            <ul className={p.cards} aria-label={t('bankCards.title')}>
              {cards.map((card) => (
                <li key={card.id} className={p.bankCard}>
                  <div className={p.bankTop}>
                    <div>
                      <h2 className={p.bankName}>{card.bank}</h2>
                      <p className={p.bankBranch}>{card.branch_bank}</p>
                    </div>
                    <button
                      type="button"
                      className={p.editButton}
                      onClick={() => setEditing(card)}
                      disabled={!online}
                      aria-label={t('bankCards.editCard', {
                        bank: card.bank,
                        last: cardLastFour(card.bank_card),
                      })}
                    >
                      {t('bankCards.edit')}
                    </button>
                  </div>
                  <p className={p.cardNumber}>
                    <CardNumber value={card.bank_card} />
                  </p>
                  <dl className={p.bankFoot}>
                    <div>
                      <dt>{t('bankCards.holder')}</dt>
                      <dd>{card.bank_user}</dd>
                    </div>
                    <div className={p.end}>
                      <dt>{t('bankCards.ifsc')}</dt>
                      <dd>{card.ifsc}</dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
            <div className={p.bottomAction}>
              <Button block variant="secondary" onClick={() => setEditing('new')} disabled={!online}>
                {t('bankCards.add')}
              </Button>
            </div>
          </>
        )}
      </ListStates>
      {!online && <p className={ui.centredNote}>{t('profile.offlineSave')}</p>}
      {editing && (
        <CardDialog
          editing={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            toast(editing === 'new' ? 'bankCards.added' : 'bankCards.updated', 'success');
            setEditing(null);
            list.reload();
          }}
        />
      )}
    </main>
  );
}

function CardDialog({
  editing,
  onClose,
  onDone,
}: {
  editing: BankCard | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const f = useCardForm(editing, onDone);
  const err = (k: keyof CardForm) => {
    const key = f.error(k);
    return key ? t(key) : null;
  };
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void f.submit();
  }
  return (
    <Dialog open sheet onClose={onClose} title={t(editing ? 'bankCards.editTitle' : 'bankCards.addTitle')}>
      <form onSubmit={onSubmit} noValidate className={`${ui.form} ${p.formInDialog}`}>
        <TextField
          label={t('bankCards.bank')}
          value={f.form.bank}
          onChange={(v) => f.set('bank', v)}
          error={err('bank')}
          autoComplete="off"
          autoFocus
        />
        <TextField
          label={t('bankCards.branch')}
          value={f.form.branch_bank}
          onChange={(v) => f.set('branch_bank', v)}
          error={err('branch_bank')}
          autoComplete="off"
        />
        <TextField
          label={t('bankCards.number')}
          value={f.form.bank_card}
          onChange={(v) => f.set('bank_card', v.replace(/[^\d\s-]/g, ''))}
          error={err('bank_card')}
          hint={editing ? t('bankCards.numberAgain', { last: cardLastFour(editing.bank_card) }) : undefined}
          inputMode="numeric"
          autoComplete="off"
        />
        <TextField
          label={t('bankCards.holder')}
          value={f.form.bank_user}
          onChange={(v) => f.set('bank_user', v)}
          error={err('bank_user')}
          autoComplete="name"
        />
        <TextField
          label={t(f.branchIsIfsc ? 'bankCards.ifsc' : 'bankCards.routing')}
          value={f.form.ifsc}
          onChange={(v) => f.set('ifsc', v.toUpperCase())}
          error={err('ifsc')}
          hint={f.branchIsIfsc ? t('bankCards.ifscHint') : undefined}
          autoCapitalize="characters"
          autoComplete="off"
        />
        {f.serverError && (
          <p className={ui.formError} role="alert">
            {t(f.serverError)}
          </p>
        )}
        <div className={p.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={f.busy} disabled={f.hasTradePassword === undefined}>
            {t('bankCards.save')}
          </Button>
        </div>
      </form>
      {f.asking && f.hasTradePassword !== undefined && (
        <TradePasswordPrompt
          hasPassword={f.hasTradePassword}
          message={t('tradePassword.askCard')}
          onClose={f.cancelAsking}
          onSubmit={f.confirm}
        />
      )}
    </Dialog>
  );
}
