/* The reference for `contract verify` throughput: a bare libcurl multi loop that keeps IN_FLIGHT
   GET requests to one URL going until TOTAL have completed, reusing easy handles, discarding the
   bodies. What our wrapper, scheduling and checks add is measured against this.
   Usage: curl-loop URL TOTAL IN_FLIGHT; prints "requests/s". */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data; (void)context;
    return size * count;
}

static void start(CURLM *multi, CURL *easy, const char *url) {
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_multi_add_handle(multi, easy);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: curl-loop URL TOTAL IN_FLIGHT\n"); return 2; }
    const char *url = argv[1];
    long total = atol(argv[2]), inFlight = atol(argv[3]), started = 0, done = 0, failed = 0;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < inFlight && started < total; i++, started++) start(multi, curl_easy_init(), url);
    while (done < total) {
        int running = 0, left = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            if (message->data.result != CURLE_OK) failed++;
            curl_multi_remove_handle(multi, easy);
            done++;
            if (started < total) { started++; start(multi, easy, url); } else curl_easy_cleanup(easy);
        }
        if (done < total) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.0f\n", total / seconds);
    if (failed) fprintf(stderr, "%ld requests failed\n", failed);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return failed ? 1 : 0;
}
