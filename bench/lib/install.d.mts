/** The packages `npm i <tarball> --omit=dev` installs into an empty project (`name@version`), and their bytes on disk. */
export function installSize(tarball: string, dir: string): Promise<{ packages: string[]; bytes: number }>;
