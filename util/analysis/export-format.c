// SPDX-License-Identifier: GPL-2.0
/* The exporters' table and their output file; see export-format.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "export-format.h"
#include "../lib/debug.h"

static const struct export_format *const formats[] = {
	&export_json,
};

const struct export_format *export_format__find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

int export_file__open(struct export_file *f, const char *path)
{
	mode_t mask;
	int fd, err;

	memset(f, 0, sizeof(*f));
	if (!strcmp(path, "-")) {
		f->to_stdout = true;
		f->fp = stdout;
		return 0;
	}
	f->path = strdup(path);
	if (!f->path || asprintf(&f->tmp, "%s.tmp.XXXXXX", path) < 0) {
		f->tmp = NULL;
		err = -ENOMEM;
		goto out_err;
	}
	fd = mkstemp(f->tmp);
	if (fd < 0) {
		err = -errno;
		pr_err("cannot write %s: %s\n", path, strerror(errno));
		free(f->tmp);
		f->tmp = NULL;
		goto out_err;
	}
	/* mkstemp() makes it 0600: give it what open(path, O_CREAT, 0666) would */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0)
		pr_debug("fchmod %s: %s\n", f->tmp, strerror(errno));
	f->fp = fdopen(fd, "w");
	if (!f->fp) {
		err = -errno;
		close(fd);
		goto out_err;
	}
	return 0;
out_err:
	export_file__abort(f);
	return err;
}

int export_file__commit(struct export_file *f)
{
	int err = 0;

	if (f->to_stdout) {
		if (fflush(stdout) || ferror(stdout))
			err = -EIO;
		return err;
	}
	if (fflush(f->fp) || ferror(f->fp))
		err = errno ? -errno : -EIO;
	if (fclose(f->fp) && !err)
		err = errno ? -errno : -EIO;
	f->fp = NULL;
	if (!err && rename(f->tmp, f->path) < 0)
		err = -errno;
	if (err) {
		pr_err("cannot write %s: %s\n", f->path, strerror(-err));
		export_file__abort(f);
		return err;
	}
	free(f->tmp);
	f->tmp = NULL;
	free(f->path);
	f->path = NULL;
	return 0;
}

void export_file__abort(struct export_file *f)
{
	if (f->to_stdout)
		return;
	if (f->fp)
		fclose(f->fp);
	f->fp = NULL;
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	free(f->path);
	f->tmp = NULL;
	f->path = NULL;
}

unsigned int export__srcline_split(const char *srcline, size_t *file_len)
{
	const char *colon;
	unsigned long line;
	char *end;

	*file_len = 0;
	if (!srcline)
		return 0;
	colon = strrchr(srcline, ':');
	if (!colon) {
		*file_len = strlen(srcline);
		return 0;
	}
	*file_len = (size_t)(colon - srcline);
	line = strtoul(colon + 1, &end, 10);	/* may go on: " (discriminator 2)" */
	if (end == colon + 1)
		line = 0;
	if (*file_len == 2 && !strncmp(srcline, "??", 2))
		*file_len = 0;
	return (unsigned int)line;
}
