/**
 * Generated product pictures for the demo catalogue: a pack drawn in the category's
 * colour with the product's name on the label. SVG keeps them small and sharp.
 */

export type PackShape = 'bottle' | 'tube' | 'jar' | 'dropper' | 'spray' | 'box';
export type ArtView = 'front' | 'back' | 'texture';

const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

const PACKS: Record<PackShape, string> = {
  bottle:
    '<rect x="150" y="40" width="100" height="50" rx="8" fill="#2f3b36"/><rect x="110" y="90" width="180" height="260" rx="40" fill="url(#g)"/>',
  tube: '<path d="M130 50h140l-10 30v0l20 270H120l20-270z" fill="url(#g)"/><rect x="150" y="350" width="100" height="30" rx="6" fill="#2f3b36"/>',
  jar: '<rect x="95" y="140" width="210" height="40" rx="10" fill="#2f3b36"/><rect x="85" y="180" width="230" height="170" rx="30" fill="url(#g)"/>',
  dropper:
    '<rect x="180" y="30" width="40" height="60" rx="18" fill="#2f3b36"/><rect x="165" y="90" width="70" height="30" fill="#2f3b36"/><rect x="125" y="120" width="150" height="230" rx="30" fill="url(#g)"/>',
  spray:
    '<rect x="165" y="35" width="55" height="35" rx="6" fill="#2f3b36"/><rect x="150" y="70" width="100" height="35" rx="6" fill="#2f3b36"/><rect x="120" y="105" width="160" height="245" rx="28" fill="url(#g)"/>',
  box: '<rect x="80" y="90" width="240" height="260" rx="12" fill="url(#g)"/><path d="M80 140h240" stroke="#2f3b36" stroke-width="6"/>',
};

function wrapLabel(name: string): string[] {
  const words = name.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if ((line + ' ' + word).trim().length > 16 && line) {
      lines.push(line);
      line = word;
    } else {
      line = (line + ' ' + word).trim();
    }
  }
  if (line) lines.push(line);
  return lines.slice(0, 4);
}

export function productArt(options: {
  name: string;
  shape: PackShape;
  hue: number;
  view: ArtView;
}): string {
  const { name, shape, hue, view } = options;
  const light = `hsl(${hue} 45% 88%)`;
  const mid = `hsl(${hue} 40% 62%)`;
  const deep = `hsl(${hue} 45% 38%)`;
  const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" role="img" aria-label="${escapeXml(name)}"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="${mid}"/><stop offset="1" stop-color="${deep}"/></linearGradient></defs><rect width="400" height="400" fill="${light}"/>`;
  if (view === 'texture') {
    return `${head}<circle cx="200" cy="210" r="120" fill="url(#g)" opacity="0.9"/><path d="M110 220c40-60 140-60 180 0" stroke="${light}" stroke-width="14" fill="none" stroke-linecap="round" opacity="0.7"/><circle cx="250" cy="160" r="18" fill="${light}" opacity="0.6"/></svg>`;
  }
  const lines = view === 'front' ? wrapLabel(name) : ['Professional', 'bio-natural', 'hair care'];
  const text = lines
    .map(
      (line, i) =>
        `<text x="200" y="${215 + i * 22 - lines.length * 11}" font-family="Arial, sans-serif" font-size="17" font-weight="${view === 'front' ? 700 : 400}" fill="#1d2622" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join('');
  return `${head}${PACKS[shape]}<rect x="120" y="${180 - lines.length * 14}" width="160" height="${lines.length * 22 + 30}" rx="10" fill="#fffdf7" opacity="0.92"/>${text}</svg>`;
}
