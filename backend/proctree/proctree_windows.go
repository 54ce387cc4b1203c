//go:build windows

package proctree

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

type treeSys struct{ job windows.Handle }

// prepare creates the process suspended, so that it starts no helper
// before it is in the job, and in a new process group, so that a Ctrl+C or
// Ctrl+Break at Ferry's console reaches Ferry first (which then quits the
// browser cleanly).
func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP
}

// adopt puts the suspended process in a new job object that kills every
// process in it when its last handle closes (Ferry exiting, crashing
// included), then resumes the process.
func (t *Tree) adopt() error {
	pid := uint32(t.cmd.Process.Pid)
	job, err := newKillOnCloseJob()
	if err != nil {
		return fmt.Errorf("create a job object for process %d: %w", pid, err)
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("open process %d: %w", pid, err)
	}
	err = windows.AssignProcessToJobObject(job, proc)
	windows.CloseHandle(proc)
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("put process %d in a job object: %w", pid, err)
	}
	t.sys.job = job
	if err := resumeProcess(pid); err != nil {
		return fmt.Errorf("resume process %d: %w", pid, err)
	}
	return nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// resumeProcess resumes every thread of the suspended process pid (a
// process created suspended has one, its main thread; os/exec closes the
// handle CreateProcess returned for it, so it is found again here).
func resumeProcess(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("list threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != pid {
			continue
		}
		th, oerr := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if oerr != nil {
			return fmt.Errorf("open thread %d: %w", entry.ThreadID, oerr)
		}
		_, rerr := windows.ResumeThread(th)
		windows.CloseHandle(th)
		if rerr != nil {
			return fmt.Errorf("resume thread %d: %w", entry.ThreadID, rerr)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("list threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("the process has no thread")
	}
	return nil
}

// kill terminates every process in the job.
func (t *Tree) kill() {
	if !t.ended && t.sys.job != 0 {
		_ = windows.TerminateJobObject(t.sys.job, 1)
	}
}

// release closes the job handle (which, with KILL_ON_JOB_CLOSE, also ends
// whatever is left in the job).
func (t *Tree) release() {
	if t.sys.job != 0 {
		windows.CloseHandle(t.sys.job)
		t.sys.job = 0
	}
}

// stillActive is what GetExitCodeProcess reports for a running process.
const stillActive = 259

// Alive reports whether pid names a running process: one that can be
// opened and has no exit code yet. A process Ferry may not open (another
// user's, a protected one) counts as alive. Pids are reused, so true only
// means "maybe": callers confirm another way.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
