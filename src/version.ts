/** The package version, sent in `User-Agent`. */
export const VERSION = '0.1.0';
