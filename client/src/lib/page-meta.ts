import type { PageMeta } from "@common/page-meta";
import { useEffect } from "react";

// The tag writer arrives after the first screen: the server wrote the same tags into the HTML of the first page,
// so they matter only from the first navigation inside the app on (issue 39: the first screen's scripts).
let headTags: Promise<typeof import("./head-tags")> | undefined;
const loadHeadTags = () => {
  headTags ??= import("./head-tags");
  return headTags;
};

/** Applies the page's head tags while it is shown (`null` while its data is loading: the tags stay as they are). */
export function usePageMeta(meta: PageMeta | null) {
  const title = meta?.title;
  const description = meta?.description;
  const image = meta?.image;
  const type = meta?.type;
  useEffect(() => {
    if (!title || !description) return;
    let current = true;
    void loadHeadTags().then(({ applyPageMeta }) => {
      if (current) applyPageMeta({ title, description, image, type });
    });
    return () => {
      current = false;
    };
  }, [title, description, image, type]);
}
