// vlclient: the control interface as seen by a Varlink client this project
// did not write (github.com/varlink/go, from Debian's packages). Usage:
//
//	vlclient SOCKET DRIVE DESCRIPTION_FILE
//
// Prints "ok: ..." or "FAILED: ..." per check and exits 1 if any failed.
// The Manager's interface description is written to DESCRIPTION_FILE for
// the interface generator of the same implementation.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/varlink/go/varlink"
	"github.com/varlink/go/varlink/idl"
)

const (
	service = "org.varlink.service"
	manager = "io.ssdtorture.Manager"
)

var failed int

func check(cond bool, what string, detail ...interface{}) {
	if cond {
		fmt.Println("ok:", what)
		return
	}
	failed++
	fmt.Println("FAILED:", what, fmt.Sprint(detail...))
}

type drives struct {
	Drives []struct {
		Name  string `json:"name"`
		State string `json:"state"`
	} `json:"drives"`
}

type events struct {
	Events []map[string]interface{} `json:"events"`
}

func ctx() context.Context {
	c, _ := context.WithTimeout(context.Background(), 10*time.Second)
	return c
}

func connect(sock string) *varlink.Connection {
	c, err := varlink.NewConnection(ctx(), "unix:"+sock)
	if err != nil {
		fmt.Println("FAILED: connect:", err)
		os.Exit(1)
	}
	return c
}

func errName(err error) string {
	switch e := err.(type) {
	case *varlink.Error:
		return e.Name
	case *varlink.InvalidParameter:
		return service + ".InvalidParameter:" + e.Parameter
	case nil:
		return ""
	}
	return err.Error()
}

func info(c *varlink.Connection) {
	var vendor, product, version, url string
	var ifaces []string
	err := c.GetInfo(ctx(), &vendor, &product, &version, &url, &ifaces)
	check(err == nil && product == "ssdtortured", "GetInfo: product ssdtortured", err, product)
	has := map[string]bool{}
	for _, i := range ifaces {
		has[i] = true
	}
	check(has[service] && has[manager], "GetInfo lists both interfaces", ifaces)
}

// This parser (varlink/go 0.4.0) takes interface names in lower case
// only; libvarlink and systemd also accept upper case, as in
// io.ssdtorture.Manager. Only the name on the interface line is mapped
// for it; the rest of the description is parsed as served.
func forThisParser(desc string) string {
	return strings.Replace(desc, "\ninterface "+manager+"\n",
		"\ninterface "+strings.ToLower(manager)+"\n", 1)
}

// Both descriptions parse with this implementation's parser.
func descriptions(c *varlink.Connection, out string) {
	for _, name := range []string{service, manager} {
		desc, err := c.GetInterfaceDescription(ctx(), name)
		check(err == nil, "GetInterfaceDescription "+name, err)
		desc = forThisParser(desc)
		parsed, err := idl.New(desc)
		check(err == nil && parsed != nil && strings.EqualFold(parsed.Name, name),
			"the description of "+name+" parses", err)
		if err != nil || name != manager {
			continue
		}
		methods := map[string]*idl.Method{}
		for _, m := range parsed.Methods {
			methods[m.Name] = m
		}
		for _, m := range []string{"Status", "Events", "Smart", "Checkpoints", "Start",
			"Stop", "Pause", "Resume", "Verify", "Checkpoint", "PowerCut", "Reload"} {
			check(methods[m] != nil, "the description declares "+m)
		}
		if ev := methods["Events"]; ev != nil {
			check(len(ev.In.Fields) == 2 && ev.In.Fields[0].Name == "drive" &&
				ev.In.Fields[1].Name == "count", "Events takes drive and count", ev.In.Fields)
		}
		os.WriteFile(out, []byte(desc), 0644)
	}
}

func calls(c *varlink.Connection, drive string) {
	var d drives
	err := c.Call(ctx(), manager+".Status", map[string]interface{}{"drive": drive}, &d)
	check(err == nil && len(d.Drives) == 1 && d.Drives[0].Name == drive,
		"Status of "+drive, err, d)
	err = c.Call(ctx(), manager+".Status", map[string]interface{}{"drive": "no-such"}, &d)
	check(errName(err) == manager+".NoSuchDrive", "Status of an unknown drive: NoSuchDrive", err)
	err = c.Call(ctx(), manager+".Status", map[string]interface{}{"drive": drive, "bogus": 1}, &d)
	check(errName(err) == service+".InvalidParameter:bogus",
		"an undeclared parameter: InvalidParameter naming it", errName(err))
}

// Three calls sent at once come back in the order sent.
func pipelined(c *varlink.Connection, drive string) {
	r1, e1 := c.Send(ctx(), manager+".Status", map[string]interface{}{"drive": drive}, 0)
	r2, e2 := c.Send(ctx(), service+".GetInfo", nil, 0)
	r3, e3 := c.Send(ctx(), manager+".Status", map[string]interface{}{"drive": "no-such"}, 0)
	if e1 != nil || e2 != nil || e3 != nil {
		check(false, "pipelined calls sent", e1, e2, e3)
		return
	}
	var d drives
	var gi struct {
		Product string `json:"product"`
	}
	_, err := r1(ctx(), &d)
	check(err == nil && len(d.Drives) == 1, "pipelined: 1st reply is the Status", err)
	_, err = r2(ctx(), &gi)
	check(err == nil && gi.Product == "ssdtortured", "pipelined: 2nd reply is the GetInfo", err, gi)
	_, err = r3(ctx(), &d)
	check(errName(err) == manager+".NoSuchDrive", "pipelined: 3rd reply is the error", err)
}

// Events with more: the backlog, then each new event; a call sent behind
// the stream is not answered in its middle.
func stream(sock, drive string, ctl *varlink.Connection) {
	c := connect(sock)
	defer c.Close()
	recv, err := c.Send(ctx(), manager+".Events",
		map[string]interface{}{"drive": drive, "count": 2}, varlink.More)
	if err != nil {
		check(false, "Events with more sent", err)
		return
	}
	var ev events
	flags, err := recv(ctx(), &ev)
	check(err == nil && flags&varlink.Continues != 0 && len(ev.Events) <= 2,
		"Events with more: the backlog continues", err, flags)
	_, err = c.Send(ctx(), service+".GetInfo", nil, 0)
	check(err == nil, "a GetInfo sent behind the stream", err)
	ctl.Call(ctx(), manager+".Pause", map[string]interface{}{"drive": drive}, nil)
	ctl.Call(ctx(), manager+".Resume", map[string]interface{}{"drive": drive}, nil)
	seen := map[string]bool{}
	for i := 0; i < 200 && !(seen["paused"] && seen["running"]); i++ {
		ev = events{}
		flags, err = recv(ctx(), &ev)
		if err != nil || flags&varlink.Continues == 0 || len(ev.Events) != 1 {
			check(false, "each streamed reply is one event that continues", err, flags, ev)
			return
		}
		seen[fmt.Sprint(ev.Events[0]["event"])] = true
	}
	check(seen["paused"] && seen["running"], "the stream carries the pause and the resume", seen)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: vlclient SOCKET DRIVE DESCRIPTION_FILE")
		os.Exit(2)
	}
	sock, drive := os.Args[1], os.Args[2]
	c := connect(sock)
	defer c.Close()
	info(c)
	descriptions(c, os.Args[3])
	calls(c, drive)
	pipelined(c, drive)
	stream(sock, drive, c)
	if failed > 0 {
		os.Exit(1)
	}
}
