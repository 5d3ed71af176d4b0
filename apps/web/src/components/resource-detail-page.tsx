import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../lib/api-error.ts";
import { ListSkeleton } from "./list-placeholders.tsx";
import { PageHeader } from "./page-header.tsx";
import { RetryAlert } from "./retry-alert.tsx";

/** What a detail page reads from its query. */
export interface DetailQuery<T> {
  data: T | undefined;
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * The page of one resource (/things/{id}) until it has its data: the list's title and the way back
 * over grey blocks while it loads, then either "not found" (a 404: deleted, or another workspace's)
 * or the failure with a retry. With the data, `children` draws the page.
 */
export function ResourceDetailPage<T>(props: {
  query: DetailQuery<T>;
  /** The list's title, shown until the resource's own. */
  title: string;
  back: ReactNode;
  /** Height of each grey block standing in for the page's cards. */
  loadingHeight: number;
  texts: { notFound: string; notFoundHint: string; loadFailed: string; retry: string };
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { query, texts } = props;
  const header = <PageHeader title={props.title} actions={props.back} />;
  if (query.isPending) {
    return (
      <>
        {header}
        <ListSkeleton label={t("common.loading")} rows={3} height={props.loadingHeight} />
      </>
    );
  }
  // A failed refetch shows the failure even over data read before, as a first failed read does.
  if (!query.error && query.data !== undefined) return props.children(query.data);
  const missing = query.error instanceof ApiError && query.error.status === 404;
  return (
    <>
      {header}
      {missing ? (
        <Paper role="alert" sx={{ p: 4, textAlign: "center" }}>
          <Typography variant="h6" component="h2">
            {texts.notFound}
          </Typography>
          <Typography color="text.secondary">{texts.notFoundHint}</Typography>
        </Paper>
      ) : (
        <RetryAlert
          error={query.error}
          fallback={texts.loadFailed}
          retryLabel={texts.retry}
          onRetry={() => void query.refetch()}
        />
      )}
    </>
  );
}
