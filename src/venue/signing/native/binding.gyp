# The signing addon (secp256k1-sign.c) against the system's libsecp256k1. Built by
# bin/build-native.mjs on `npm install` / `npm ci` when the library's headers are there.
{
  'targets': [
    {
      'target_name': 'clobot_secp256k1',
      'sources': ['secp256k1-sign.c'],
      'libraries': ['-lsecp256k1'],
      'cflags': ['-O2', '-Wall', '-Wextra'],
      'defines': ['NAPI_VERSION=8'],
    },
  ],
}
