import type { Outcome, SeoItem } from '../check-result.js';
import type { PageArtifacts } from '../page-artifacts.js';

/** Lighthouse's non-descriptive link texts, by language (compared lower-cased and trimmed). */
const NON_DESCRIPTIVE: Record<string, Set<string>> = {
  en: new Set(['click here', 'click this', 'go', 'here', 'information', 'learn more', 'more', 'more info', 'more information', 'right here', 'read more', 'see more', 'start', 'this']),
  ja: new Set(['ここをクリック', 'こちらをクリック', 'リンク', '続きを読む', '続く', '全文表示']),
  es: new Set(['click aquí', 'click aqui', 'clicka aquí', 'clicka aqui', 'pincha aquí', 'pincha aqui', 'aquí', 'aqui', 'más', 'mas', 'más información',
    'más informacion', 'mas información', 'mas informacion', 'este', 'enlace', 'este enlace', 'empezar']),
  pt: new Set(['clique aqui', 'ir', 'mais informação', 'mais informações', 'mais', 'veja mais']),
  ko: new Set(['여기', '여기를 클릭', '클릭', '링크', '자세히', '자세히 보기', '계속', '이동', '전체 보기']),
  sv: new Set(['här', 'klicka här', 'läs mer', 'mer', 'mer info', 'mer information']),
  de: new Set(['klicke hier', 'hier klicken', 'hier', 'mehr', 'siehe', 'dies', 'das', 'weiterlesen']),
  ta: new Set(['அடுத்த பக்கம்', 'மறுபக்கம்', 'முந்தைய பக்கம்', 'முன்பக்கம்', 'மேலும் அறிக', 'மேலும் தகவலுக்கு', 'மேலும் தரவுகளுக்கு',
    'தயவுசெய்து இங்கே அழுத்தவும்', 'இங்கே கிளிக் செய்யவும்']),
  fa: new Set(['اطلاعات بیشتر', 'اطلاعات', 'این', 'اینجا بزنید', 'اینجا کلیک کنید', 'اینجا', 'برو', 'بیشتر بخوانید', 'بیشتر بدانید', 'بیشتر', 'شروع']),
};

const withoutFragment = (u: string) => {
  const url = URL.parse(u);
  if (url) url.hash = '';
  return url?.href ?? null;
};

/**
 * Whether a link's text is in Lighthouse's list for its language (the text's `lang`; every
 * list when unknown). The language tag is used as written: Lighthouse does not lower-case it.
 */
function nonDescriptive(text: string, lang: string | undefined): boolean {
  const term = text.toLowerCase();
  const lists = lang ? [NON_DESCRIPTIVE[lang.split('-')[0]]].filter(Boolean) : Object.values(NON_DESCRIPTIVE);
  return lists.some((list) => list.has(term));
}

/**
 * Lighthouse's link-text. Not in scope: links without href, with `nofollow` in `rel`,
 * `javascript:` and `mailto:` links, and links to this very page (`#` and fragments).
 */
export function linkText(a: PageArtifacts): Outcome {
  const page = withoutFragment(a.finalUrl);
  const inScope = a.anchors.filter((l) => {
    if (!l.href || l.rel.includes('nofollow')) return false;
    const href = l.href.toLowerCase();
    return !href.startsWith('javascript:') && !href.startsWith('mailto:') && withoutFragment(l.href) !== page;
  });
  const items: SeoItem[] = inScope.flatMap((l) => {
    const text = l.text.trim();
    return text && nonDescriptive(text, l.textLang) ? [{ reason: 'Non-descriptive link text', url: l.href, text, element: l.element }] : [];
  });
  const examples = [...new Set(items.map((i) => i.text ?? ''))];
  return {
    pass: items.length === 0,
    value: { vague_links: items.length, examples: examples.slice(0, 5) },
    message: items.length ? `${items.length} link${items.length === 1 ? '' : 's'} found with non-descriptive text` : 'link texts are descriptive',
    recommendation: `Replace non-descriptive link text (${examples.slice(0, 3).map((t) => `"${t}"`).join(', ')}) with words that say where the link goes.`,
    items,
  };
}
