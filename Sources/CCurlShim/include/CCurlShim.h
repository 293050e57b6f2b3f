#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: typed wrappers. */
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_readfunction(CURL *handle, curl_read_callback function);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_writefunction(CURL *handle, CURLoption option, curl_write_callback function);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *out);
#endif
