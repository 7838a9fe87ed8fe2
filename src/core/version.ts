/** clobot's version (package.json's): `clobot --version` and the `clobot_build_info` metric. */
export const CLOBOT_VERSION = '0.1.0';
