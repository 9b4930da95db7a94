import { type FormEvent, type KeyboardEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../api/connection';
import {
  AsOf,
  EmptyState,
  IconSend,
  IconService,
  ListStates,
  PageHeader,
  SkeletonList,
  ui,
  useDates,
} from '../../ui';
import p from '../_parts/content/content.module.css';
import { useCustomerService } from './useCustomerService';

/** Customer-service chat (SPEC §2): message list and send; offline messages wait, marked pending. */
export default function CustomerServiceScreen() {
  const { t } = useTranslation();
  const { messageTime: time } = useDates();
  const online = useOnline();
  const c = useCustomerService();
  const end = useRef<HTMLLIElement>(null);
  const total = c.messages.length + c.pending.length;

  useEffect(() => {
    if (total) end.current?.scrollIntoView({ block: 'end' });
  }, [total]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void c.send();
  }
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter breaks the line (a phone keyboard's return key inserts a newline).
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void c.send();
    }
  }

  return (
    <main className={p.chat}>
      <PageHeader title={t('chat.title')} />
      {c.stale && c.fetchedAt !== null && (
        <div className={ui.asOfLine}>
          <AsOf at={c.fetchedAt} stale />
        </div>
      )}
      {/*
        No error rung: the worker keeps the device's list and refetches it; a message that fails to
        send says so on its own bubble.
      */}
      <ListStates
        rows={c.loading ? undefined : [...c.messages, ...c.pending]}
        error={null}
        loading={
          <div className={p.fill}>
            <SkeletonList rows={4} height={44} />
          </div>
        }
        empty={
          <div className={p.fill}>
            <EmptyState title={t('chat.empty')} icon={<IconService size={28} />}>
              {!online && c.fetchedAt === null && <p className={ui.centredNote}>{t('chat.offlineEmpty')}</p>}
            </EmptyState>
          </div>
        }
      >
        {(log) => (
          <ol className={p.chatLog} aria-label={t('chat.log')} aria-live="polite">
            {log.map((m) =>
              m.pending ? (
                <li
                  key={m.clientId}
                  className={`${p.bubbleRow} ${p.mine} ${m.failed ? p.failedBubble : p.pendingBubble}`}
                  data-testid="chat-pending"
                >
                  <span className="visually-hidden">{t('chat.you')}: </span>
                  <div className={p.bubble}>{m.body}</div>
                  <span className={p.bubbleMeta}>
                    {m.failed ? (
                      <>
                        <span role="alert">
                          {t('core.message.failed')} · {t(m.failed)}
                        </span>
                        <button
                          type="button"
                          className={p.bubbleAction}
                          onClick={() => void c.retry(m.clientId)}
                        >
                          {t('core.message.retry')}
                        </button>
                        <button
                          type="button"
                          className={p.bubbleAction}
                          onClick={() => void c.discard(m.clientId)}
                        >
                          {t('core.message.discard')}
                        </button>
                      </>
                    ) : (
                      <span>{online ? t('chat.sending') : t('core.message.pending')}</span>
                    )}
                  </span>
                </li>
              ) : (
                <li key={m.id} className={`${p.bubbleRow} ${m.sender === 'user' ? p.mine : p.theirs}`}>
                  <span className="visually-hidden">
                    {t(m.sender === 'user' ? 'chat.you' : 'chat.agent')}:{' '}
                  </span>
                  {/* A text of ours (the welcome) in the user's language; a person's words as written. */}
                  <div className={p.bubble}>{m.text_key ? t(m.text_key) : m.body}</div>
                  <span className={p.bubbleMeta}>
                    <time dateTime={new Date(m.created_at).toISOString()}>{time(m.created_at)}</time>
                    {m.sender === 'user' && m.id <= c.readUpTo && <span> · {t('chat.read')}</span>}
                  </span>
                </li>
              ),
            )}
            <li ref={end} aria-hidden="true" />
          </ol>
        )}
      </ListStates>
      <p className={p.typingLine} aria-live="polite">
        {c.agentTyping ? t('chat.agentTyping') : ''}
      </p>
      <form className={p.composer} onSubmit={onSubmit} noValidate>
        <label htmlFor="chat-input" className="visually-hidden">
          {t('chat.input')}
        </label>
        <textarea
          id="chat-input"
          className={p.composerInput}
          rows={1}
          maxLength={2000}
          value={c.draft}
          placeholder={t('chat.placeholder')}
          onChange={(e) => c.setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={c.error ? true : undefined}
          aria-describedby={c.error ? 'chat-error' : undefined}
        />
        <button
          type="submit"
          className={p.sendButton}
          aria-label={t('chat.send')}
          disabled={c.draft.trim() === ''}
        >
          <IconSend size={20} />
        </button>
      </form>
      {c.error && (
        <p id="chat-error" className={`${ui.formError} ${p.chatError}`} role="alert">
          {t(c.error)}
        </p>
      )}
    </main>
  );
}
