import { useTranslation } from 'react-i18next';
import type { TextKey } from '../../lib/i18n';
import { BRAND } from '../../contracts/brand';
import { Icon, type IconName } from '../../components/icons';
import { ScreenMeta } from '../screen-meta';

type SectionPage = 'shipping' | 'returns' | 'warranty';

/** Each page's sections in reading order, with their bullet points. */
const SECTIONS: Record<SectionPage, Record<string, string[]>> = {
  shipping: {
    times: ['dispatch', 'tracking', 'check'],
    destinations: ['romania', 'italy', 'eu'],
    payment: ['transfer', 'currency'],
    contract: ['proforma', 'confirmation'],
  },
  returns: {
    window: ['delivery', 'discrepancy', 'transport'],
    conditions: ['defective', 'damaged', 'wrong'],
    process: ['contact', 'approval', 'refund'],
  },
  warranty: {
    quality: ['batch', 'nickel', 'expiry'],
    damage: ['report', 'seal'],
    claims: ['contact', 'replacement'],
  },
};

/** The fixed icon sets the sections cycle through (4 for shipping, 3 for returns and warranty). */
const ICONS: Record<SectionPage, IconName[]> = {
  shipping: ['truck', 'globe', 'card', 'document'],
  returns: ['calendar', 'box', 'mail'],
  warranty: ['shield', 'alert', 'tools'],
};

const FAQ_ITEMS = ['verification', 'prices', 'offline', 'payment', 'delivery', 'returns'] as const;

function Banner({ page }: { page: 'faq' | SectionPage }) {
  const { t } = useTranslation();
  return (
    <section className="support-banner">
      <h1>{t(`support.${page}.title`)}</h1>
      <p>{t(`support.${page}.intro`)}</p>
    </section>
  );
}

function Contact({ page }: { page: 'faq' | SectionPage }) {
  const { t } = useTranslation();
  const subject = page === 'returns' ? '?subject=RETURN' : '';
  return (
    <section className="card support-contact" aria-labelledby="contact-title">
      <h2 id="contact-title">{t('support.contact.title')}</h2>
      <p>{t('support.contact.text')}</p>
      {page === 'faq' ? (
        <ul className="contact-list">
          <li>
            {t('support.contact.email')}: <a href={`mailto:${BRAND.email}`}>{BRAND.email}</a>
          </li>
          {BRAND.phone && (
            <li>
              {t('support.contact.phone')}:{' '}
              <a href={`tel:${BRAND.phone.replace(/\s/g, '')}`}>{BRAND.phone}</a>
            </li>
          )}
        </ul>
      ) : (
        <a className="button" href={`mailto:${BRAND.email}${subject}`}>
          {t(page === 'returns' ? 'support.contact.returnButton' : 'support.contact.supportButton')}
        </a>
      )}
    </section>
  );
}

export function SupportPage({ page }: { page: 'faq' | SectionPage }) {
  const { t } = useTranslation();
  return (
    <div className="page support">
      <ScreenMeta
        title={t(`support.${page}.title`)}
        description={t(`support.${page}.description`)}
        path={`/support/${page}`}
      />
      <Banner page={page} />
      {page === 'faq' ? (
        <div className="faq">
          {FAQ_ITEMS.map((item) => (
            <details key={item} className="faq__item">
              <summary>{t(`support.faq.items.${item}.question`)}</summary>
              <p>{t(`support.faq.items.${item}.answer`)}</p>
            </details>
          ))}
        </div>
      ) : (
        <div className="support-sections">
          {Object.entries(SECTIONS[page]).map(([section, points], index) => (
            <section
              key={section}
              className="card support-section"
              aria-labelledby={`section-${section}`}
            >
              <span className="support-section__icon">
                <Icon name={ICONS[page][index % ICONS[page].length] as IconName} />
              </span>
              <h2 id={`section-${section}`}>
                {t(`support.${page}.sections.${section}.title` as TextKey)}
              </h2>
              <ul>
                {points.map((point) => (
                  <li key={point}>
                    {t(`support.${page}.sections.${section}.points.${point}` as TextKey)}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <Contact page={page} />
    </div>
  );
}
