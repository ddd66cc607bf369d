import { useTranslation } from 'react-i18next';
import { PageMeta, type PageMetaProps } from '../components/page-meta';

/**
 * The head tags of one of the portal's screens: its title followed by the portal's name
 * ("Cart | …"), and the portal's keywords.
 */
export function ScreenMeta({ title, ...meta }: Omit<PageMetaProps, 'keywords'>) {
  const { t } = useTranslation();
  return (
    <PageMeta
      title={`${title} | ${t('meta.titleSuffix')}`}
      keywords={t('meta.keywords')}
      {...meta}
    />
  );
}
