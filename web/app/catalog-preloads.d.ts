/** The catalogs chunk of each locale with its imports, as URL paths (web/vite/catalog-preloads.ts). */
declare module 'virtual:catalog-preloads' {
  const preloads: Partial<Record<'en' | 'ru' | 'ua', string[]>>;
  export default preloads;
}
