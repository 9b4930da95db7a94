import type { FormEvent } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../api/connection';
import { PATHS } from '../../paths';
import type { KycState } from '../../shared/contract/settings';
import { KYC_STATUS } from '../../shared/status';
import { Button, FieldFrame, IconCamera, PageHeader, SkeletonList, TextField, ui } from '../../ui';
import { SummaryRow } from '../_parts/invest/parts';
import p from '../_parts/settings/settings.module.css';
import { ID_TYPES, type Photo, type Side, useRealName } from './useRealName';

/** Real-name verification (SPEC §2): stamp and locked form while under review or approved. */
export default function RealNameScreen() {
  const { t } = useTranslation();
  const online = useOnline();
  const r = useRealName();
  const selectId = useId();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void r.submit();
  }

  if (r.state.loading && !r.current) {
    return (
      <main>
        <PageHeader title={t('realName.title')} back={PATHS.settings} />
        <SkeletonList rows={5} height={52} />
      </main>
    );
  }

  if (r.locked && r.current) return <LockedView state={r.current} justSubmitted={r.justSubmitted} />;

  const err = (k: 'name' | 'idNumber') => {
    const key = r.error(k);
    return key ? t(key) : null;
  };
  return (
    <main className={ui.clearOfService}>
      <PageHeader title={t('realName.title')} back={PATHS.settings} />
      {r.state.error && !r.current && (
        <p className={p.notice} role="status">
          {t('realName.stateUnknown')}
        </p>
      )}
      {r.current?.status === KYC_STATUS.rejected && (
        <p className={p.notice} role="status" data-testid="kyc-rejected">
          {/* The reviewer's reason code in the user's language, then their own words. */}
          {r.current.reason
            ? t(`realName.reasons.${r.current.reason}`, { defaultValue: t('realName.rejected') })
            : t('realName.rejected')}
          {r.current.note
            ? ` ${r.current.reason ? t('realName.reasons.note', { note: r.current.note }) : r.current.note}`
            : ''}
        </p>
      )}
      <form className={ui.form} onSubmit={onSubmit} noValidate>
        <p className={p.lead}>{t('realName.explain')}</p>
        <TextField
          label={t('realName.name')}
          value={r.form.name}
          onChange={(v) => r.set('name', v)}
          error={err('name')}
          autoComplete="name"
        />
        <FieldFrame id={selectId} label={t('realName.idType')}>
          <select
            id={selectId}
            className={`${ui.select} ${p.select}`}
            value={r.form.idType}
            onChange={(e) => r.set('idType', e.target.value as (typeof ID_TYPES)[number])}
          >
            {ID_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`realName.types.${type}`)}
              </option>
            ))}
          </select>
        </FieldFrame>
        <TextField
          label={t('realName.idNumber')}
          value={r.form.idNumber}
          onChange={(v) => r.set('idNumber', v)}
          error={err('idNumber')}
          autoComplete="off"
          autoCapitalize="characters"
        />
        <div className={p.photos}>
          {(['front', 'back'] as Side[]).map((side) => (
            <PhotoPicker
              key={side}
              side={side}
              photo={r.photos[side]}
              error={r.photos[side].error ?? r.error(side)}
              disabled={!online}
              onPick={(file) => void r.pick(side, file)}
            />
          ))}
        </div>
        {r.serverError && (
          <p className={ui.formError} role="alert">
            {t(r.serverError)}
          </p>
        )}
        <Button type="submit" block loading={r.busy} disabled={!online || r.uploading} unready={!r.ready}>
          {t('realName.submit')}
        </Button>
        {!online && <p className={ui.centredNote}>{t('profile.offlineSave')}</p>}
      </form>
    </main>
  );
}

function PhotoPicker({
  side,
  photo,
  error,
  disabled,
  onPick,
}: {
  side: Side;
  photo: Photo;
  error: string | null;
  disabled: boolean;
  onPick: (file: File | undefined) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const label = t(side === 'front' ? 'realName.front' : 'realName.back');
  const uploading = photo.progress !== null;
  return (
    <div className={p.photo}>
      <label className={p.photoLabel} htmlFor={inputId}>
        {label}
      </label>
      <div className={p.photoBox}>
        {photo.preview ? (
          <img src={photo.preview} alt={t('realName.preview', { side: label })} />
        ) : (
          <span className={p.photoEmpty} aria-hidden="true">
            <IconCamera size={26} />
            {t('realName.pick')}
          </span>
        )}
        <input
          id={inputId}
          type="file"
          accept="image/*"
          disabled={disabled || uploading}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          data-testid={`kyc-${side}`}
          onChange={(e) => {
            onPick(e.target.files?.[0]);
            // The same file picked again after an error must fire change again.
            e.target.value = '';
          }}
        />
        {uploading && (
          <div
            className={p.progress}
            role="progressbar"
            aria-label={t('realName.uploading', { side: label })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round((photo.progress ?? 0) * 100)}
          >
            <div className={p.progressBar} style={{ width: `${Math.round((photo.progress ?? 0) * 100)}%` }} />
          </div>
        )}
      </div>
      {uploading ? (
        <span className={`${ui.centredNote} ${p.start}`}>
          {t('realName.uploadingPercent', { percent: Math.round((photo.progress ?? 0) * 100) })}
        </span>
      ) : photo.url && !error ? (
        <span className={`${ui.centredNote} ${p.start}`}>{t('realName.uploaded')}</span>
      ) : null}
      {error && (
        <span id={`${inputId}-error`} className={p.photoError} role="alert">
          {t(error)}
        </span>
      )}
    </div>
  );
}

function LockedView({ state, justSubmitted }: { state: KycState; justSubmitted: boolean }) {
  const { t } = useTranslation();
  const approved = state.status === KYC_STATUS.approved;
  return (
    <main className={ui.clearOfService}>
      <PageHeader title={t('realName.title')} back={PATHS.settings} />
      <div className={p.stampHero}>
        <div
          className={`${p.stamp} ${approved ? p.stampApproved : p.stampReview}`}
          role="img"
          aria-label={t(approved ? 'realName.approved' : 'realName.review')}
          data-testid="kyc-stamp"
        >
          {t(approved ? 'realName.approved' : 'realName.review')}
        </div>
        <p className={p.lead}>
          {t(
            approved
              ? 'realName.approvedExplain'
              : justSubmitted
                ? 'realName.submitted'
                : 'realName.reviewExplain',
          )}
        </p>
      </div>
      <dl className={p.summary} aria-label={t('realName.locked')}>
        <SummaryRow label={t('realName.name')}>{state.real_name ?? '—'}</SummaryRow>
        <SummaryRow label={t('realName.idType')}>
          {state.id_type ? t(`realName.types.${state.id_type}`) : '—'}
        </SummaryRow>
        <SummaryRow label={t('realName.idNumber')}>
          <span className="num">{state.id_number ?? '—'}</span>
        </SummaryRow>
      </dl>
      <p className={ui.centredNote}>{t('realName.locked')}</p>
    </main>
  );
}
