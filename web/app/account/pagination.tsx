import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** `?page=N` links for the current path: the first page has no parameter. */
const pageSearch = (page: number) => (page <= 1 ? '' : `?page=${page}`);

/** Previous and next with where the reader is: "Page 2 of 5 · 93 in total". */
export function Pagination({ page, pages, total }: { page: number; pages: number; total: number }) {
  const { t } = useTranslation('account');
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {page > 1 ? (
        <Link
          className="button button--small"
          to={{ search: pageSearch(Math.min(page - 1, pages)) }}
          rel="prev"
        >
          {t('pagination.previous')}
        </Link>
      ) : (
        <span className="button button--small" aria-disabled="true">
          {t('pagination.previous')}
        </span>
      )}
      <p className="pagination__summary">{t('pagination.summary', { page, pages, total })}</p>
      {page < pages ? (
        <Link className="button button--small" to={{ search: pageSearch(page + 1) }} rel="next">
          {t('pagination.next')}
        </Link>
      ) : (
        <span className="button button--small" aria-disabled="true">
          {t('pagination.next')}
        </span>
      )}
    </nav>
  );
}
