/** Decorative backdrop of the home hero and of the merchant and buy page headers (preloaded on /). */
export const BACKDROP_IMAGE_URL = "/images/backdrop.svg";
