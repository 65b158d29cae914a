import {
  formatPageTitle,
  type PageMeta,
  SITE_NAME,
  SOCIAL_IMAGE_SIZE,
  socialImagePath,
} from "@common/page-meta";

function setTag(selector: string, create: () => HTMLElement, attr: string, value: string) {
  let element = document.head.querySelector<HTMLElement>(selector);
  if (!element) {
    element = create();
    document.head.append(element);
  }
  element.setAttribute(attr, value);
}

function setMeta(kind: "name" | "property", key: string, content: string) {
  setTag(
    `meta[${kind}="${key}"]`,
    () => {
      const meta = document.createElement("meta");
      meta.setAttribute(kind, key);
      return meta;
    },
    "content",
    content,
  );
}

/**
 * The small head manager of the public pages: title, description, canonical link, Open Graph and Twitter tags.
 * The server writes the same tags into the HTML of these pages (for crawlers); this keeps them right while the
 * visitor navigates inside the app.
 */
export function applyPageMeta(meta: PageMeta, path = window.location.pathname) {
  const origin = window.location.origin;
  const url = `${origin}${path}`;
  const title = formatPageTitle(meta.title);
  const image = new URL(socialImagePath(meta.image), origin).toString();
  document.title = title;
  setTag(
    'link[rel="canonical"]',
    () => {
      const link = document.createElement("link");
      link.rel = "canonical";
      return link;
    },
    "href",
    url,
  );
  setMeta("name", "description", meta.description);
  setMeta("property", "og:site_name", SITE_NAME);
  setMeta("property", "og:type", meta.type ?? "website");
  setMeta("property", "og:title", title);
  setMeta("property", "og:description", meta.description);
  setMeta("property", "og:url", url);
  setMeta("property", "og:image", image);
  setMeta("property", "og:image:type", "image/png");
  setMeta("property", "og:image:width", String(SOCIAL_IMAGE_SIZE.width));
  setMeta("property", "og:image:height", String(SOCIAL_IMAGE_SIZE.height));
  setMeta("name", "twitter:card", "summary_large_image");
  setMeta("name", "twitter:title", title);
  setMeta("name", "twitter:description", meta.description);
  setMeta("name", "twitter:image", image);
}
