// libcall_cxx: an untraced C++ library that calls back into traced code
extern "C" void each(int n, void (*cb)(int))
{
	for (int i = 0; i < n; i++)
		cb(i);
}
