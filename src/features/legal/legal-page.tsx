import { useTranslation } from 'react-i18next';
import type { TextKey } from '../../lib/i18n';
import { BRAND } from '../../contracts/brand';
import { ScreenMeta } from '../screen-meta';

const SECTIONS = {
  terms: ['accounts', 'contract', 'payment', 'delivery', 'returns', 'liability'],
  privacy: [
    'controller',
    'data',
    'purposes',
    'sharing',
    'retention',
    'device',
    'security',
    'rights',
  ],
} as const;

export function LegalPage({ page }: { page: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  return (
    <div className="page legal">
      <ScreenMeta
        title={t(`legal.${page}.title`)}
        description={t(`legal.${page}.description`)}
        path={`/${page}`}
      />
      <h1>{t(`legal.${page}.title`)}</h1>
      <p className="legal__intro">{t(`legal.${page}.intro`)}</p>
      {SECTIONS[page].map((section, index) => (
        <section key={section}>
          <h2>
            {index + 1}. {t(`legal.${page}.sections.${section}.title` as TextKey)}
          </h2>
          <p>{t(`legal.${page}.sections.${section}.text` as TextKey)}</p>
        </section>
      ))}
      <section>
        <h2>{t('legal.contactTitle')}</h2>
        <ul className="contact-list">
          <li>{t('app.name')}</li>
          {BRAND.address && <li>{BRAND.address}</li>}
          {BRAND.email && (
            <li>
              {t('footer.email')}: <a href={`mailto:${BRAND.email}`}>{BRAND.email}</a>
            </li>
          )}
          {BRAND.phone && (
            <li>
              {t('footer.phone')}:{' '}
              <a href={`tel:${BRAND.phone.replace(/\s/g, '')}`}>{BRAND.phone}</a>
            </li>
          )}
        </ul>
      </section>
    </div>
  );
}
