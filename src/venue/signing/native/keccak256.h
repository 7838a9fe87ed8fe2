#ifndef CLOBOT_KECCAK256_H
#define CLOBOT_KECCAK256_H
#include <stddef.h>
#include <stdint.h>

/* keccak256 of data[0..length) into out (32 bytes). */
void clobot_keccak256(const uint8_t *data, size_t length, uint8_t out[32]);

#endif
