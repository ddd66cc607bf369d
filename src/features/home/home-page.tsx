import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../components/icons';
import { PageMeta } from '../../components/page-meta';
import { useCategories } from '../../lib/sync/use-catalogue';

const FEATURES = [
  { key: 'offline', icon: 'box' },
  { key: 'prices', icon: 'card' },
  { key: 'range', icon: 'shield' },
  { key: 'support', icon: 'globe' },
] as const satisfies readonly { key: string; icon: IconName }[];
const RITUAL = ['scrub', 'cleanse', 'treat', 'refresh'] as const;
const ETHICS = ['nickel', 'cruelty', 'free', 'plants'] as const;

export function HomePage() {
  const { t } = useTranslation();
  const teaTree = useCategories().find((category) => category.slug === 'tea-tree');
  return (
    <div className="home">
      <PageMeta
        title={t('meta.homeTitle')}
        description={t('meta.homeDescription')}
        keywords={t('meta.keywords')}
        path="/"
      />
      <section className="hero">
        <div className="hero__content">
          <p className="hero__eyebrow">{t('app.tagline')}</p>
          <h1>{t('home.heroTitle')}</h1>
          <p>{t('home.heroText')}</p>
          <div className="hero__actions">
            <Link className="button button--large button--light" to="/products">
              {t('home.ctaProducts')}
            </Link>
            <Link className="button button--large button--outline-light" to="/register">
              {t('home.ctaRegister')}
            </Link>
          </div>
        </div>
      </section>

      <section className="page home__intro">
        <p>{t('home.intro')}</p>
      </section>

      <section className="page home__features" aria-labelledby="features-title">
        <h2 id="features-title">{t('home.features.title')}</h2>
        <ul className="feature-cards">
          {FEATURES.map(({ key, icon }) => (
            <li key={key} className="card">
              <span className="support-section__icon">
                <Icon name={icon} />
              </span>
              <h3>{t(`home.features.items.${key}.title`)}</h3>
              <p>{t(`home.features.items.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="home__ritual" aria-labelledby="ritual-title">
        <div className="page">
          <h2 id="ritual-title">{t('home.teaTree.title')}</h2>
          <p>{t('home.teaTree.text')}</p>
          <ol className="ritual-steps">
            {RITUAL.map((step) => (
              <li key={step}>{t(`home.teaTree.steps.${step}`)}</li>
            ))}
          </ol>
          <Link
            className="button"
            to={teaTree ? `/products?category=${teaTree.id}` : '/products?search=tea+tree'}
          >
            {t('categories.tea-tree')}
          </Link>
        </div>
      </section>

      <div className="page home__columns">
        <section aria-labelledby="about-title">
          <h2 id="about-title">{t('home.about.title')}</h2>
          <p>{t('home.about.text')}</p>
        </section>
        <section aria-labelledby="ethics-title">
          <h2 id="ethics-title">{t('home.ethics.title')}</h2>
          <p>{t('home.ethics.text')}</p>
          <ul className="ethics-list">
            {ETHICS.map((item) => (
              <li key={item}>{t(`home.ethics.items.${item}`)}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="training-title">
          <h2 id="training-title">{t('home.training.title')}</h2>
          <p>{t('home.training.text')}</p>
        </section>
      </div>

      <section className="home__closing" aria-labelledby="closing-title">
        <div className="page">
          <h2 id="closing-title">{t('home.closing.title')}</h2>
          <p>{t('home.closing.text')}</p>
          <div className="hero__actions">
            <Link className="button button--large button--light" to="/register">
              {t('home.ctaRegister')}
            </Link>
            <Link className="button button--large button--outline-light" to="/products">
              {t('home.ctaProducts')}
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
