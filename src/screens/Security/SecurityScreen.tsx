import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../paths';
import type { Enrolled, PasskeyRow } from '../../shared/contract/security';
import { LOCK_CHOICES_MS, useLock } from '../../shell/lock';
import { toast } from '../../store/ui';
import {
  Button,
  Dialog,
  IconButton,
  IconCheck,
  IconEdit,
  IconFingerprint,
  IconKey,
  IconLock,
  IconPlus,
  IconTrash,
  ObjectStates,
  PageHeader,
  SkeletonList,
  StatusChip,
  TextField,
  ui,
  useDates,
} from '../../ui';
import { type Proof, ProofForm } from '../_parts/security/ProofForm';
import { enrolPasskey } from '../_parts/security/passkeyEnrol';
import { RecoveryCodes } from '../_parts/security/RecoveryCodes';
import ps from '../_parts/security/security.module.css';
import { TotpEnrol } from '../_parts/security/TotpEnrol';
import { passkeysSupported } from '../_parts/security/webauthn';
import s from './security.module.css';
import { useSecurity } from './useSecurity';

type Open =
  | { kind: 'add' }
  | { kind: 'rename'; passkey: PasskeyRow }
  | { kind: 'remove'; passkey: PasskeyRow }
  | { kind: 'totp' }
  | { kind: 'totpOff' }
  | { kind: 'renew' }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'lockAfter' }
  | null;

/**
 * Settings → Security: passkeys (add, rename, remove), the authenticator app (set up,
 * turn off), recovery codes (how many are left, a new set), and the app lock's delay. Removing a
 * factor and a new set of codes need a second factor; the server then ends the other sessions.
 */
export default function SecurityScreen() {
  const { t } = useTranslation();
  const dates = useDates();
  const sec = useSecurity();
  const [open, setOpen] = useState<Open>(null);
  const lockAfter = useLock((st) => st.after);
  const setLockAfter = useLock((st) => st.setAfter);
  const close = () => setOpen(null);

  /** A factor was set up: its first recovery codes are shown once, then the list is read again. */
  function enrolled(result: Enrolled) {
    sec.reload();
    if (result.recovery_codes) setOpen({ kind: 'codes', codes: result.recovery_codes });
    else close();
  }

  const minutes = (ms: number) => t('security.lock.minutes', { count: ms / 60_000 });

  return (
    <main>
      <PageHeader title={t('security.title')} back={PATHS.settings} />
      <ObjectStates
        data={sec.data}
        error={sec.state.error}
        onRetry={sec.reload}
        loading={<SkeletonList rows={4} height={64} className={s.skeleton} />}
      >
        {(data) => (
          <>
            <p className={s.lead}>{t(data.required ? 'security.required' : 'security.lead')}</p>

            <h2 className={s.group}>{t('security.passkeys.title')}</h2>
            <div className={`${ui.card} ${s.card}`}>
              {data.passkeys.length === 0 && <p className={s.empty}>{t('security.passkeys.none')}</p>}
              {data.passkeys.length > 0 && (
                <ul className={ui.plainList} aria-label={t('security.passkeys.title')}>
                  {data.passkeys.map((p) => (
                    <li key={p.id} className={s.item} data-testid="passkey">
                      <span className={s.itemIcon}>
                        <IconFingerprint />
                      </span>
                      <span className={s.itemMain}>
                        <span className={s.itemName}>{p.name}</span>
                        <span className={s.itemSub}>
                          {p.last_used_at
                            ? t('security.passkeys.used', { date: dates.date(p.last_used_at) })
                            : t('security.passkeys.added', { date: dates.date(p.created_at) })}
                        </span>
                        {p.flagged && (
                          <span>
                            <StatusChip tone="danger">{t('security.passkeys.flagged')}</StatusChip>
                          </span>
                        )}
                      </span>
                      <IconButton
                        label={t('security.passkeys.rename', { name: p.name })}
                        onClick={() => setOpen({ kind: 'rename', passkey: p })}
                      >
                        <IconEdit size={20} />
                      </IconButton>
                      <IconButton
                        label={t('security.passkeys.remove', { name: p.name })}
                        onClick={() => setOpen({ kind: 'remove', passkey: p })}
                      >
                        <IconTrash size={20} />
                      </IconButton>
                    </li>
                  ))}
                </ul>
              )}
              {passkeysSupported() ? (
                <Button variant="secondary" block onClick={() => setOpen({ kind: 'add' })}>
                  <IconPlus size={20} />
                  {t('security.passkeys.add')}
                </Button>
              ) : (
                <p className={s.hint}>{t('core.passkey.unsupported')}</p>
              )}
              <p className={s.hint}>{t('security.passkeys.hint')}</p>
            </div>

            <h2 className={s.group}>{t('security.totp.title')}</h2>
            <div className={`${ui.card} ${s.card}`}>
              <div className={s.item}>
                <span className={s.itemIcon}>
                  <IconKey />
                </span>
                <span className={s.itemMain}>
                  <span className={s.itemName}>{t('security.totp.name')}</span>
                  <span className={s.itemSub}>{t(data.totp ? 'security.on' : 'security.off')}</span>
                </span>
                {data.totp ? (
                  <Button variant="ghost" onClick={() => setOpen({ kind: 'totpOff' })}>
                    {t('security.totp.off')}
                  </Button>
                ) : (
                  <Button variant="secondary" onClick={() => setOpen({ kind: 'totp' })}>
                    {t('security.totp.setUp')}
                  </Button>
                )}
              </div>
              <p className={s.hint}>{t('security.totp.hint')}</p>
            </div>

            {sec.hasFactor && (
              <>
                <h2 className={s.group}>{t('auth.recovery.title')}</h2>
                <div className={`${ui.card} ${s.card}`}>
                  <div className={s.item}>
                    <span className={s.itemMain}>
                      <span className={s.itemName}>
                        {t('security.codes.left', { count: data.recovery_left })}
                      </span>
                      <span className={s.itemSub}>{t('security.codes.hint')}</span>
                    </span>
                    <Button variant="ghost" onClick={() => setOpen({ kind: 'renew' })}>
                      {t('security.codes.renew')}
                    </Button>
                  </div>
                </div>
              </>
            )}

            <h2 className={s.group}>{t('security.lock.title')}</h2>
            <div className={`${ui.card} ${s.card}`}>
              <button type="button" className={s.item} onClick={() => setOpen({ kind: 'lockAfter' })}>
                <span className={s.itemIcon}>
                  <IconLock />
                </span>
                <span className={s.itemMain}>
                  <span className={s.itemName}>{t('security.lock.after')}</span>
                  <span className={s.itemSub}>{t('security.lock.hint')}</span>
                </span>
                <span className={s.value}>{minutes(lockAfter)}</span>
              </button>
            </div>

            <AddPasskeyDialog open={open?.kind === 'add'} onClose={close} onDone={enrolled} />
            {open?.kind === 'rename' && (
              <RenameDialog
                passkey={open.passkey}
                onClose={close}
                onSave={async (name) => {
                  const r = await sec.rename(open.passkey.id, name);
                  if (r.ok) {
                    sec.reload();
                    close();
                  }
                  return r.ok ? null : r.error;
                }}
              />
            )}
            {(open?.kind === 'remove' || open?.kind === 'totpOff' || open?.kind === 'renew') && (
              <Dialog
                open
                onClose={close}
                sheet
                title={
                  open.kind === 'remove'
                    ? t('security.confirm.removePasskey', { name: open.passkey.name })
                    : open.kind === 'totpOff'
                      ? t('security.confirm.totpOff')
                      : t('security.confirm.renew')
                }
              >
                <p className={ps.sheetHint}>
                  {t(open.kind === 'renew' ? 'security.confirm.renewHint' : 'security.confirm.removeHint')}
                </p>
                <ProofForm
                  methods={sec.methods}
                  submitLabel={t('security.confirm.submit')}
                  onProof={async (proof: Proof) => {
                    if (open.kind === 'renew') {
                      const r = await sec.renewCodes(proof);
                      if (!r.ok) return r.error;
                      sec.reload();
                      setOpen({ kind: 'codes', codes: r.data.recovery_codes });
                      return null;
                    }
                    const r =
                      open.kind === 'remove'
                        ? await sec.removePasskey(open.passkey.id, proof)
                        : await sec.removeTotp(proof);
                    if (!r.ok) return r.error;
                    sec.reload();
                    close();
                    toast('security.removed', 'success');
                    return null;
                  }}
                />
              </Dialog>
            )}
            <Dialog open={open?.kind === 'totp'} onClose={close} sheet title={t('auth.totp.title')}>
              {open?.kind === 'totp' && <TotpEnrol onDone={enrolled} />}
            </Dialog>
            <Dialog open={open?.kind === 'codes'} onClose={close} sheet title={t('auth.recovery.title')}>
              {open?.kind === 'codes' && <RecoveryCodes codes={open.codes} onDone={close} />}
            </Dialog>
            <Dialog open={open?.kind === 'lockAfter'} onClose={close} sheet title={t('security.lock.after')}>
              <ul className={`${ui.choices} ${s.options}`}>
                {LOCK_CHOICES_MS.map((ms) => (
                  <li key={ms}>
                    <button
                      type="button"
                      className={ui.choice}
                      aria-current={lockAfter === ms ? 'true' : undefined}
                      onClick={() => {
                        setLockAfter(ms);
                        close();
                      }}
                    >
                      <span className={s.itemName}>{minutes(ms)}</span>
                      {lockAfter === ms && <IconCheck size={18} />}
                    </button>
                  </li>
                ))}
              </ul>
            </Dialog>
          </>
        )}
      </ObjectStates>
    </main>
  );
}

/** Names the new passkey (this phone, a security key…), then the browser's prompt creates it. */
function AddPasskeyDialog({
  open,
  onClose,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  onDone: (result: Enrolled) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await enrolPasskey(name.trim() || t('auth.enrol.defaultName'));
    setBusy(false);
    if (r.ok) {
      setName('');
      toast('security.passkeys.addedToast', 'success');
      onDone(r.data);
    } else setError(r.error);
  }
  return (
    <Dialog open={open} onClose={onClose} sheet title={t('security.passkeys.add')}>
      <form className={s.form} onSubmit={submit} noValidate>
        <p className={ps.sheetHint}>{t('security.passkeys.addHint')}</p>
        <TextField
          label={t('security.passkeys.name')}
          value={name}
          onChange={setName}
          maxLength={40}
          placeholder={t('auth.enrol.defaultName')}
          error={error ? t(error, { defaultValue: t('core.passkey.failed') }) : null}
        />
        <Button type="submit" block loading={busy}>
          <IconFingerprint size={20} />
          {t('security.passkeys.create')}
        </Button>
      </form>
    </Dialog>
  );
}

function RenameDialog({
  passkey,
  onClose,
  onSave,
}: {
  passkey: PasskeyRow;
  onClose: () => void;
  onSave: (name: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onClose={onClose} sheet title={t('security.passkeys.renameTitle')}>
      <form
        className={s.form}
        onSubmit={async (e) => {
          e.preventDefault();
          setError(await onSave(name));
        }}
        noValidate
      >
        <TextField
          label={t('security.passkeys.name')}
          value={name}
          onChange={setName}
          maxLength={40}
          error={error ? t(error) : null}
        />
        <Button type="submit" block>
          {t('security.passkeys.save')}
        </Button>
      </form>
    </Dialog>
  );
}
