import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { call, uploadImage } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { isTransportFailure } from '../../shared/call';
import type { IdType, KycState } from '../../shared/contract/settings';
import { KYC_STATUS } from '../../shared/status';

export const ID_TYPES: IdType[] = ['idCard', 'driver', 'passport', 'other'];

export type Side = 'front' | 'back';

export interface Photo {
  /** What the form sends: the upload's url. */
  url: string | null;
  /** Object URL of the shrunk image, for the preview. */
  preview: string | null;
  /** 0..1 while uploading. */
  progress: number | null;
  error: string | null;
}

const EMPTY_PHOTO: Photo = { url: null, preview: null, progress: null, error: null };

/** SPEC §4: status 1 (under review) and 2 (approved) lock the form behind a stamp. */
export function isLocked(status: KycState['status'] | undefined): boolean {
  return status === KYC_STATUS.underReview || status === KYC_STATUS.approved;
}

export interface KycForm {
  name: string;
  idType: IdType;
  idNumber: string;
}

/** Each field's first problem (SPEC §5 real-name), as i18n keys. */
export function checkKycForm(f: KycForm, front: Photo, back: Photo) {
  const errors: Partial<Record<'name' | 'idNumber' | Side, string>> = {};
  if (f.name.trim() === '') errors.name = 'realName.nameRequired';
  if (f.idNumber.trim() === '') errors.idNumber = 'realName.idRequired';
  if (!front.url) errors.front = 'errors.kycPhotoMissing';
  if (!back.url) errors.back = 'errors.kycPhotoMissing';
  return errors;
}

/**
 * Real-name verification (SPEC §2/§4/§5). The state is read on entry; if that fails the form still
 * opens (SPEC: entry proceeds) and the server refuses a second submission of a locked one. Photos
 * are shrunk and uploaded by the sync worker as soon as they are picked, with progress.
 */
export function useRealName() {
  const state = useWatch('kycState', {}, 0);
  // What settings fetched on the way in; the screen's own answer replaces it when it arrives.
  const passed = (useLocation().state as { kyc?: KycState | null } | null)?.kyc ?? undefined;
  const [submittedState, setSubmittedState] = useState<KycState | null>(null);
  const [form, setForm] = useState<KycForm>({ name: '', idType: 'idCard', idNumber: '' });
  const [photos, setPhotos] = useState<Record<Side, Photo>>({ front: EMPTY_PHOTO, back: EMPTY_PHOTO });
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const previews = useRef(new Set<string>());

  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const u of urls) URL.revokeObjectURL(u);
    };
  }, []);

  const current = submittedState ?? state.data ?? passed;
  const rejected = current?.status === KYC_STATUS.rejected ? current : null;

  useEffect(() => {
    // A rejected form comes back with what can be shown again (the id number is masked: retyped).
    if (!rejected) return;
    setForm((f) =>
      f.name === '' ? { ...f, name: rejected.real_name ?? '', idType: rejected.id_type ?? f.idType } : f,
    );
  }, [rejected]);
  const errors = checkKycForm(form, photos.front, photos.back);
  const uploading = photos.front.progress !== null || photos.back.progress !== null;

  const setPhoto = (side: Side, next: Partial<Photo>) =>
    setPhotos((p) => ({ ...p, [side]: { ...p[side], ...next } }));

  async function pick(side: Side, file: File | undefined): Promise<void> {
    if (!file) return;
    setServerError(null);
    // Quick answer for the obvious case; the worker decodes the file and is the real judge.
    if (file.type && !file.type.startsWith('image/')) {
      setPhoto(side, { error: 'errors.notAnImage', progress: null });
      return;
    }
    setPhoto(side, { error: null, progress: 0 });
    // Progress comes over its own channel and can land after the answer: late news is dropped.
    let done = false;
    const result = await uploadImage(file, (sent) => {
      if (!done) setPhoto(side, { progress: sent });
    });
    done = true;
    if (!result.ok) {
      setPhoto(side, {
        progress: null,
        error: isTransportFailure(result.error) ? 'realName.uploadFailed' : result.error,
      });
      return;
    }
    const preview = URL.createObjectURL(result.data.image.blob);
    previews.current.add(preview);
    setPhotos((p) => {
      const old = p[side].preview;
      if (old) {
        URL.revokeObjectURL(old);
        previews.current.delete(old);
      }
      return { ...p, [side]: { url: result.data.url, preview, progress: null, error: null } };
    });
  }

  async function submit(): Promise<void> {
    setSubmitted(true);
    if (Object.keys(errors).length || uploading) return;
    setBusy(true);
    const result = await call('kycSubmit', {
      real_name: form.name.trim(),
      id_type: form.idType,
      id_number: form.idNumber.trim(),
      id_number_img: photos.front.url!,
      id_number_img_two: photos.back.url!,
    });
    setBusy(false);
    if (!result.ok) {
      setServerError(isTransportFailure(result.error) ? 'realName.submitFailed' : result.error);
      if (result.error === 'errors.kycLocked') state.reload();
      return;
    }
    setSubmittedState(result.data);
  }

  return {
    state,
    current,
    locked: isLocked(current?.status),
    form,
    set: <K extends keyof KycForm>(k: K, v: KycForm[K]) => {
      setForm((f) => ({ ...f, [k]: v }));
      setServerError(null);
    },
    photos,
    pick,
    error: (k: 'name' | 'idNumber' | Side) => (submitted ? (errors[k] ?? null) : null),
    /** Every field and both photos are there; until then a tap on submit shows what is missing. */
    ready: Object.keys(errors).length === 0,
    serverError,
    busy,
    uploading,
    submit,
    justSubmitted: submittedState !== null,
  };
}
