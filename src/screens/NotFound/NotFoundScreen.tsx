import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../paths';
import { EmptyState, IconFlag, PageHeader } from '../../ui';

export default function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <main>
      <PageHeader title={t('notFound.title')} />
      <EmptyState title={t('notFound.message')} icon={<IconFlag size={28} />}>
        <Link to={PATHS.home}>{t('notFound.home')}</Link>
      </EmptyState>
    </main>
  );
}
