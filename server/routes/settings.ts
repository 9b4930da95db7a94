import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { addCard, editCard, listCards } from '../account/bank-cards';
import { changeFundPassword } from '../account/fund-password';
import { kycState, readUpload, readUploadedFile, storeUpload, submitKyc } from '../account/identity';
import { changeLoginPassword } from '../account/login-password';
import { withStepUp } from '../account/step-up';
import { authenticate, tokenOf } from '../lib/auth';
import { privateAnswer } from '../lib/private-answers';
import { route } from '../lib/route';
import { UPLOAD_MAX_BYTES, UPLOAD_READ_PATH } from '../lib/uploads';

/** Settings (SPEC §5): passwords, bank cards, identity photos and real-name verification. */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  // Scoped to this plugin: no other route accepts multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  // A new login password and the first transaction password need a fresh proof of an existing
  // factor (a stolen session must not set either); changing the transaction password
  // needs its current code instead.
  route(app, contract.passwordUp, async ({ input, user, req }) => {
    const token = tokenOf(req) ?? '';
    if (input.type === 'transaction' && !input.is_first) await changeFundPassword(deps, user.id, input);
    else if (input.type === 'transaction')
      await withStepUp(deps, user.id, token, () => changeFundPassword(deps, user.id, input));
    else await withStepUp(deps, user.id, token, () => changeLoginPassword(deps, user, req.ip, token, input));
    return null;
  });

  route(app, contract.bankList, async ({ user }) => listCards(deps, user.id));
  route(app, contract.bankAdd, async ({ input, user }) => addCard(deps, user.id, input));
  route(app, contract.bankEdit, async ({ input, user }) => editCard(deps, user.id, input.id, input));

  route(app, contract.upload, async ({ req, user }) =>
    storeUpload(deps, user.id, await readUploadedFile(req)),
  );

  // The owner reads an upload back (the image bytes, not an envelope); anyone else gets notFound.
  app.get(`${deps.config.apiBase}${UPLOAD_READ_PATH}`, { onRequest: privateAnswer }, async (req, reply) => {
    const user = await authenticate(deps, req);
    const { mime, bytes } = await readUpload(deps, user.id, (req.params as { id: string }).id);
    // Image bytes a customer sent, checked by content: never run as a page, even opened on its own
    // (API answers carry no document policy of their own, lib/security-headers.ts).
    return reply
      .header('content-type', mime)
      .header('content-disposition', 'inline')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(bytes);
  });

  route(app, contract.kycSubmit, async ({ input, user }) => submitKyc(deps, user.id, input));
  route(app, contract.kycState, async ({ user }) => kycState(deps, user.id));
}
