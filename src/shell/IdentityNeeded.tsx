import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../paths';
import { useUi } from '../store/ui';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import s from './shell.module.css';

/**
 * Identity before money: when the server refused a money call because the account's
 * real-name verification is not approved (REQUIRE_KYC, errors.kycRequired), this says why, what
 * still works, and leads to Real-name — whichever screen (add funds, a loan, the ticket, an IPO,
 * block trading, funds) the call came from.
 */
export function IdentityNeeded() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = useUi((u) => u.identityNeeded);
  const close = () => useUi.getState().setIdentityNeeded(false);
  return (
    <Dialog open={open} onClose={close} title={t('wallet.identityNeeded.title')}>
      <p className={s.identityText}>{t('wallet.identityNeeded.body')}</p>
      <div className={s.identityActions}>
        <Button
          block
          onClick={() => {
            close();
            navigate(PATHS.realName);
          }}
        >
          {t('wallet.identityNeeded.verify')}
        </Button>
        <Button block variant="ghost" onClick={close}>
          {t('wallet.identityNeeded.later')}
        </Button>
      </div>
    </Dialog>
  );
}
