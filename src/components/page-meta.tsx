import { createContext, useContext } from 'react';
import { BRAND } from '../contracts/brand';

/** The portal's own address; the server provides it when it renders a page. */
export const SiteOriginContext = createContext<string | null>(null);

export function useSiteOrigin(): string {
  return useContext(SiteOriginContext) ?? window.location.origin;
}

export interface PageMetaProps {
  title: string;
  description: string;
  keywords: string;
  /** Path of the page's canonical address, without query. */
  path: string;
  /** Structured data (schema.org) for the page, besides the organisation. */
  structuredData?: object[];
}

export function organizationData(origin: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: BRAND.name,
    url: `${origin}/`,
    logo: `${origin}/favicon.svg`,
    foundingDate: BRAND.foundingDate,
    ...(BRAND.email ? { email: BRAND.email } : {}),
  };
}

/** Head tags of a page; React hoists title, meta and link into the document head. */
export function PageMeta({
  title,
  description,
  keywords,
  path,
  structuredData = [],
}: PageMetaProps) {
  const origin = useSiteOrigin();
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <meta name="keywords" content={keywords} />
      <link rel="canonical" href={`${origin}${path}`} />
      {[organizationData(origin), ...structuredData].map((data, i) => (
        <script
          key={i}
          type="application/ld+json"
          // JSON-LD is data, not code; "<" is escaped so that text cannot close the tag.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }}
        />
      ))}
    </>
  );
}
