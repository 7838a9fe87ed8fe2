# The signing addon (addon.c) against the system's libsecp256k1. Built by
# bin/build-native.mjs on `npm install` / `npm ci` when the library's headers are there.
{
  'targets': [
    {
      'target_name': 'clobot_signing',
      'sources': ['addon.c'],
      'libraries': ['-lsecp256k1'],
      'cflags': ['-Wall', '-Wextra'],
      'defines': ['NAPI_VERSION=8'],
    },
  ],
}
