import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Watchlist } from '../../shared/contract/watchlist';
import { WATCHLIST_MAX_LISTS } from '../../shared/rules';
import {
  Button,
  ConfirmDialog,
  Dialog,
  IconButton,
  IconDown,
  IconEdit,
  IconTrash,
  IconUp,
  TextField,
  ui,
} from '../../ui';
import { type ListRow, listName, type useLists } from '../_parts/watchlist/useLists';
import w from '../_parts/watchlist/watchlist.module.css';

type Lists = ReturnType<typeof useLists>;

/**
 * Manage the lists: move up/down, rename, delete (not Favourites), and make a new one. Changes
 * not yet acknowledged by the server are marked "Pending sync" (a list waiting to be deleted stays
 * here, marked, without actions, until it is).
 */
export function ListsSheet({ open, onClose, lists }: { open: boolean; onClose: () => void; lists: Lists }) {
  const { t } = useTranslation();
  const [naming, setNaming] = useState<ListRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ListRow | null>(null);
  // The order moves only the lists that stay; one waiting to be deleted is shown but not counted.
  const rows = lists.rows;
  const move = (index: number, by: -1 | 1) => {
    const ids = rows.map((r) => r.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    void lists.reorder(ids);
  };
  return (
    <>
      <Dialog
        open={open && naming === null && deleting === null}
        onClose={onClose}
        title={t('watch.lists.manage')}
        sheet
      >
        {lists.orderPending && (
          <p className={`${ui.pendingTag} ${w.pendingNote}`}>{t('watch.lists.orderPending')}</p>
        )}
        <ul className={`${ui.plainList} ${w.manageList}`}>
          {lists.all.map((list) => {
            const name = listName(list, t);
            const i = rows.findIndex((r) => r.id === list.id);
            if (list.pending === 'delete')
              return (
                <li key={list.id} className={w.manageRow} data-pending="delete">
                  <span className={w.manageName}>
                    <s>{name}</s>
                    <span className={w.manageMeta}>
                      <span className={ui.pendingTag}>{t('watch.lists.deletePending')}</span>
                    </span>
                  </span>
                </li>
              );
            return (
              <li key={list.id} className={w.manageRow} data-pending={list.pending ?? undefined}>
                <span className={w.manageName}>
                  {name}
                  <span className={w.manageMeta}>
                    <span className={w.manageCount}>{t('watch.lists.count', { count: list.count })}</span>
                    {list.pending && <span className={ui.pendingTag}>{t('core.favourite.pending')}</span>}
                  </span>
                </span>
                <IconButton
                  label={t('watch.lists.up', { name })}
                  disabled={i === 0 || lists.busy}
                  onClick={() => move(i, -1)}
                >
                  <IconUp size={20} />
                </IconButton>
                <IconButton
                  label={t('watch.lists.down', { name })}
                  disabled={i === rows.length - 1 || lists.busy}
                  onClick={() => move(i, 1)}
                >
                  <IconDown size={20} />
                </IconButton>
                {!list.is_default && (
                  <>
                    <IconButton label={t('watch.lists.rename', { name })} onClick={() => setNaming(list)}>
                      <IconEdit size={20} />
                    </IconButton>
                    <IconButton label={t('watch.lists.delete', { name })} onClick={() => setDeleting(list)}>
                      <IconTrash size={20} />
                    </IconButton>
                  </>
                )}
              </li>
            );
          })}
        </ul>
        <div className={w.formActions}>
          <Button variant="secondary" onClick={onClose}>
            {t('watchlist.done')}
          </Button>
          <Button disabled={rows.length >= WATCHLIST_MAX_LISTS} onClick={() => setNaming('new')}>
            {t('watch.lists.new')}
          </Button>
        </div>
      </Dialog>
      <NameDialog
        target={naming}
        busy={lists.busy}
        onClose={() => setNaming(null)}
        onSave={async (name) => {
          const done =
            naming === 'new' ? await lists.create(name) : naming ? await lists.rename(naming.id, name) : null;
          if (done) setNaming(null);
          return done;
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('watch.lists.deleteTitle')}
        message={deleting && t('watch.lists.deleteMessage', { name: listName(deleting, t) })}
        confirmLabel={t('watchlist.delete')}
        danger
        busy={lists.busy}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting && (await lists.remove(deleting.id)) !== null) setDeleting(null);
        }}
      />
    </>
  );
}

/** A list's name: a new list, or renaming one. `onSave` answers the saved list (null: refused). */
export function NameDialog({
  target,
  busy,
  onClose,
  onSave,
}: {
  target: Watchlist | 'new' | null;
  busy: boolean;
  onClose: () => void;
  onSave: (name: string) => Promise<{ id: number } | null>;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      title={t(target === 'new' ? 'watch.lists.newTitle' : 'watch.lists.renameTitle')}
    >
      {target !== null && (
        <NameForm
          initial={target === 'new' ? '' : (target.name ?? '')}
          busy={busy}
          onClose={onClose}
          onSave={onSave}
        />
      )}
    </Dialog>
  );
}

function NameForm({
  initial,
  busy,
  onClose,
  onSave,
}: {
  initial: string;
  busy: boolean;
  onClose: () => void;
  onSave: (name: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className={ui.dialogForm}
      onSubmit={(e) => {
        e.preventDefault();
        const trimmed = name.trim();
        if (!trimmed) {
          setError(t('errors.watchlistName'));
          return;
        }
        void onSave(trimmed);
      }}
    >
      <TextField
        label={t('watch.lists.name')}
        value={name}
        onChange={(v) => {
          setName(v);
          setError(null);
        }}
        maxLength={40}
        autoComplete="off"
        autoFocus
        error={error}
      />
      <div className={w.formActions}>
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={busy}>
          {t('watch.lists.save')}
        </Button>
      </div>
    </form>
  );
}
