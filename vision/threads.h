#ifdef __cplusplus
extern "C" {
#endif

void decant_set_threads(int n);
int decant_threads(void);

#ifdef __cplusplus
}
#endif
