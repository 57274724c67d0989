/*
 * fe_smart.c: the model's counters as `smartctl --json -a` prints an NVMe
 * drive, so that what reads smartctl's output reads the simulated drive.
 * The field names and their places are smartctl 7.3's: its JSON output
 * for NVMe (smartmontools/smartmontools, smartmontools/nvmeprint.cpp,
 * print_smart_log) and a real capture of it
 * (prometheus-community/smartctl_exporter 0dc8fb3e,
 * testdata/nvme-null-Samsung_SSD_970_EVO_Plus_250GB-nvme0.json).
 * smartctl prints the thermal management counters (log page 02h bytes
 * 216-231) as text only; they go, under libnvme's names, into the
 * "ssdsim" object with what a real drive keeps in a vendor log: NAND
 * bytes written and read (write amplification), erase counts.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <json.h>

#include "fe.h"

#define DATA_UNIT	512000ULL	/* NVMe: thousands of 512 B, rounded up */

static void
put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void
put_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static uint64_t
data_units(uint64_t bytes)
{
	return (bytes + DATA_UNIT - 1) / DATA_UNIT;
}

/* NVMe's composite temperature is whole kelvins; smartctl prints K - 273. */
static int64_t
temp_c(const struct sim_counters *c)
{
	return (int64_t)lround(c->temperature_c);
}

static struct json_object *
health_log(const struct fe *fe, const struct sim_counters *c)
{
	struct json_object	*h = json_object_new_object();

	put_u64(h, "critical_warning", c->critical_warning);
	put_int(h, "temperature", temp_c(c));
	put_u64(h, "available_spare", c->available_spare);
	put_u64(h, "available_spare_threshold", c->available_spare_threshold);
	put_u64(h, "percentage_used", c->percentage_used);
	put_u64(h, "data_units_read", data_units(c->host_read_bytes));
	put_u64(h, "data_units_written", data_units(c->host_written_bytes));
	put_u64(h, "host_reads", c->host_read_cmds);
	put_u64(h, "host_writes", c->host_write_cmds);
	put_u64(h, "controller_busy_time", fe->busy_ns / 60000000000ULL);
	put_u64(h, "power_cycles", c->power_cycles);
	put_u64(h, "power_on_hours", c->power_on_seconds / 3600);
	put_u64(h, "unsafe_shutdowns", c->unsafe_shutdowns);
	put_u64(h, "media_errors", c->media_errors);
	put_u64(h, "num_err_log_entries", c->error_log_entries);
	put_u64(h, "warning_temp_time", c->warning_temp_minutes);
	put_u64(h, "critical_comp_time", c->critical_temp_minutes);
	return h;
}

static const char *
life_word(enum sim_life l)
{
	return l == SIM_LIFE_OK ? "ok" : l == SIM_LIFE_READONLY ?
	    "read_only" : "gone";
}

/* What a real drive keeps in vendor logs, and the exact figures. */
static struct json_object *
extras(const struct fe *fe, const struct sim_counters *c)
{
	struct json_object	*x = json_object_new_object();

	put_u64(x, "host_bytes_written", c->host_written_bytes);
	put_u64(x, "host_bytes_read", c->host_read_bytes);
	put_u64(x, "nand_bytes_written", c->nand_written_bytes);
	put_u64(x, "nand_bytes_read", c->nand_read_bytes);
	put_u64(x, "thm_temp1_trans_count", c->thermal_transitions[0]);
	put_u64(x, "thm_temp2_trans_count", c->thermal_transitions[1]);
	put_u64(x, "thm_temp1_total_time", c->thermal_seconds[0]);
	put_u64(x, "thm_temp2_total_time", c->thermal_seconds[1]);
	put_u64(x, "erase_count_avg", c->erase_count_avg);
	put_u64(x, "erase_count_max", c->erase_count_max);
	put_u64(x, "rated_erase_count", c->rated_erase_count);
	json_object_object_add(x, "temperature_celsius",
	    json_object_new_double(c->temperature_c));
	put_u64(x, "power_on_seconds", c->power_on_seconds);
	put_u64(x, "controller_busy_ns", fe->busy_ns);
	json_object_object_add(x, "life",
	    json_object_new_string(life_word(c->life)));
	json_object_object_add(x, "profile",
	    json_object_new_string(fe->prof.name));
	return x;
}

static struct json_object *
version_pair(int a, int b)
{
	struct json_object	*v = json_object_new_array();

	json_object_array_add(v, json_object_new_int(a));
	json_object_array_add(v, json_object_new_int(b));
	return v;
}

static struct json_object *
capacity_obj(uint64_t bytes)
{
	struct json_object	*o = json_object_new_object();

	put_u64(o, "blocks", bytes / FE_SECTOR);
	put_u64(o, "bytes", bytes);
	return o;
}

/* The identity part, before the logs. */
static void
identity(struct json_object *o, const struct fe *fe)
{
	struct json_object	*dev = json_object_new_object();
	char			 s[96];

	json_object_object_add(dev, "name",
	    json_object_new_string(fe->drive_path));
	json_object_object_add(dev, "info_name",
	    json_object_new_string(fe->drive_path));
	json_object_object_add(dev, "type", json_object_new_string("nvme"));
	json_object_object_add(dev, "protocol", json_object_new_string("NVMe"));
	json_object_object_add(o, "device", dev);
	snprintf(s, sizeof(s), "SSDSIM %s", fe->prof.name);
	json_object_object_add(o, "model_name", json_object_new_string(s));
	snprintf(s, sizeof(s), "SIM%016" PRIX64, fe->seed);
	json_object_object_add(o, "serial_number", json_object_new_string(s));
	json_object_object_add(o, "firmware_version",
	    json_object_new_string("SSDSIM1"));
	put_u64(o, "nvme_total_capacity", fe->capacity);
	put_u64(o, "nvme_unallocated_capacity", 0);
	json_object_object_add(o, "user_capacity", capacity_obj(fe->capacity));
	put_u64(o, "logical_block_size", FE_SECTOR);
}

struct json_object *
fe_smart_json(const struct fe *fe, const struct sim_counters *c)
{
	struct json_object	*o = json_object_new_object(), *sc, *st, *nv;
	struct json_object	*t, *po;
	int			 failing = c->critical_warning != 0;

	json_object_object_add(o, "json_format_version", version_pair(1, 0));
	sc = json_object_new_object();
	json_object_object_add(sc, "version", version_pair(7, 3));
	/* smartctl's bit 3: "SMART status check returned DISK FAILING" */
	put_int(sc, "exit_status", failing ? 8 : 0);
	json_object_object_add(o, "smartctl", sc);
	identity(o, fe);
	st = json_object_new_object();
	json_object_object_add(st, "passed", json_object_new_boolean(!failing));
	nv = json_object_new_object();
	put_u64(nv, "value", c->critical_warning);
	json_object_object_add(st, "nvme", nv);
	json_object_object_add(o, "smart_status", st);
	json_object_object_add(o, "nvme_smart_health_information_log",
	    health_log(fe, c));
	t = json_object_new_object();
	put_int(t, "current", temp_c(c));
	json_object_object_add(o, "temperature", t);
	po = json_object_new_object();
	put_u64(po, "hours", c->power_on_seconds / 3600);
	json_object_object_add(o, "power_on_time", po);
	put_u64(o, "power_cycle_count", c->power_cycles);
	json_object_object_add(o, "ssdsim", extras(fe, c));
	return o;
}

/*
 * A drive that does not answer (the power is off, or it died): smartctl
 * cannot open it, says so in its messages and exits with bit 1 set
 * ("device open failed").
 */
struct json_object *
fe_smart_absent(const struct fe *fe, const char *why)
{
	struct json_object	*o = json_object_new_object(), *sc, *msgs, *m;
	struct json_object	*dev = json_object_new_object();

	json_object_object_add(o, "json_format_version", version_pair(1, 0));
	sc = json_object_new_object();
	json_object_object_add(sc, "version", version_pair(7, 3));
	msgs = json_object_new_array();
	m = json_object_new_object();
	json_object_object_add(m, "string", json_object_new_string(why));
	json_object_object_add(m, "severity", json_object_new_string("error"));
	json_object_array_add(msgs, m);
	json_object_object_add(sc, "messages", msgs);
	put_int(sc, "exit_status", 2);
	json_object_object_add(o, "smartctl", sc);
	json_object_object_add(dev, "name",
	    json_object_new_string(fe->drive_path));
	json_object_object_add(dev, "info_name",
	    json_object_new_string(fe->drive_path));
	json_object_object_add(dev, "type", json_object_new_string("nvme"));
	json_object_object_add(dev, "protocol", json_object_new_string("NVMe"));
	json_object_object_add(o, "device", dev);
	return o;
}
