#include <opencv2/core.hpp>
#include "threads.h"

void decant_set_threads(int n) { cv::setNumThreads(n); }
int decant_threads(void) { return cv::getNumThreads(); }
